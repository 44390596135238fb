/**
 * The GitHub calls the action makes (`GitHubApi` in `api.ts`): each one's route or GraphQL query,
 * sent through the client of `client.ts`, and its answer parsed by the schemas of `schemas.ts`.
 * Each call is bounded by the signal it is given. Failures are thrown to the caller, whose GitHub
 * policy (`policy.ts`) turns them into one warning.
 */
import { gitHubError } from './policy.js'
import type { Account, ChangedFile, GitHubApi } from './api.js'
import { createOctokit, type GitHubOptions } from './client.js'

import {
  asList,
  CheckRunsSchema,
  CombinedStatusSchema,
  CommitPullSchema,
  CommitSchema,
  CommittedAtSchema,
  ComparisonSchema,
  FileSchema,
  HistorySchema,
  IssueCommentSchema,
  items,
  ListedCheckRunSchema,
  ListedCommitSchema,
  ListedStatusSchema,
  PermissionSchema,
  PullStateSchema,
  RepositorySchema,
  ViewerSchema
} from './schemas.js'

/**
 * Who the token is: its id tells its account apart from one whose login differs only by `[bot]`.
 * Typed `User`, `viewer` spells an App's installation token `<slug>[bot]`, as REST does.
 */
export const VIEWER_QUERY = 'query { viewer { login databaseId } }'

/**
 * The token's account, and one page of a branch's history with the latest status of each context
 * on each commit and who wrote it. `creator` is an `Actor`, an interface without `databaseId`:
 * the id is asked of each kind of account that has one; a Bot's login comes without `[bot]`.
 */
export const HISTORY_QUERY = `query ($owner: String!, $repo: String!, $sha: String!, $first: Int!, $after: String) {
  viewer { login databaseId }
  repository(owner: $owner, name: $repo) {
    object(expression: $sha) {
      ... on Commit {
        history(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes {
            oid
            status {
              contexts {
                context
                description
                state
                creator {
                  __typename
                  login
                  ... on Bot { databaseId }
                  ... on User { databaseId }
                  ... on Mannequin { databaseId }
                  ... on Organization { databaseId }
                }
              }
            }
          }
        }
      }
    }
  }
}`

/** Every GraphQL query the action sends. */
export const GRAPHQL_QUERIES = { viewer: VIEWER_QUERY, history: HISTORY_QUERY } as const

/** The GitHub calls of one step, over Octokit with its policy (`client.ts`). */
export function createGitHubApi(options: GitHubOptions): GitHubApi {
  const octokit = createOctokit(options)

  /** The token's account, once GitHub named it. */
  let account: Account | undefined
  return {
    async compare(owner, repo, base, head, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
        owner,
        repo,
        basehead: `${base}...${head}`,
        request: { signal }
      })
      const parsed = ComparisonSchema.parse(data)
      const commits = items(CommitSchema, parsed.commits)
      return {
        url: parsed.html_url ?? undefined,
        commits,
        // Never fewer than were listed, whatever the count says; absent when GitHub gave none.
        totalCommits:
          parsed.total_commits == null ? undefined : Math.max(parsed.total_commits, commits.length),
        files: items(FileSchema, parsed.files)
      }
    },
    async commit(owner, repo, sha, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
        owner,
        repo,
        ref: sha,
        request: { signal }
      })
      const commit = CommitSchema.parse(data)
      return {
        url: commit.url,
        commits: [{ sha: commit.sha, message: commit.message, author: commit.author }],
        files: items(FileSchema, commit.files)
      }
    },
    async committedAt(owner, repo, sha, signal) {
      // The commit's own route: the git database's would spare the files, at one more route.
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', {
        owner,
        repo,
        ref: sha,
        per_page: 1,
        request: { signal }
      })
      return CommittedAtSchema.parse(data)
    },
    async pullFiles(owner, repo, number, maxFiles, signal) {
      const files: ChangedFile[] = []
      let page = 1
      // However the pages are cut, no more requests than full pages of 100 would take.
      const maxPages = Math.ceil(maxFiles / 100)
      for (; files.length < maxFiles && page <= maxPages; page++) {
        const { data, headers } = await octokit.request(
          'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
          {
            owner,
            repo,
            pull_number: number,
            per_page: 100,
            page,
            request: { signal }
          }
        )
        const list = asList(data)
        files.push(...items(FileSchema, list))
        // The last page has no `next` link: a pull request of exactly 100 files takes one request.
        if (list.length < 100 || !/rel="next"/.test(headers.link ?? '')) {
          return { files, complete: true, pages: page }
        }
      }
      return { files: files.slice(0, maxFiles), complete: false, pages: page - 1 }
    },
    async commitPulls(owner, repo, sha, signal) {
      const { data } = await octokit.request(
        'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls',
        {
          owner,
          repo,
          commit_sha: sha,
          per_page: 100,
          request: { signal }
        }
      )
      return items(CommitPullSchema, asList(data))
    },
    async listComments(owner, repo, number, page, signal) {
      const { data, headers } = await octokit.request(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner, repo, issue_number: number, per_page: 100, page, request: { signal } }
      )
      const last = /[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(headers.link ?? '')
      return {
        comments: items(IssueCommentSchema, asList(data)),
        lastPage: last ? Number(last[1]) : page
      }
    },
    async viewer(signal) {
      // A token's account does not change within a step: asked once, whoever asks.
      if (account) return account
      const data = await octokit.graphql(VIEWER_QUERY, { request: { signal } })
      const viewer = ViewerSchema.parse(data).viewer
      account = viewer
      return viewer
    },
    async history(owner, repo, sha, count, after, signal) {
      const data = await octokit.graphql(HISTORY_QUERY, {
        owner,
        repo,
        sha,
        first: count,
        after: after ?? null,
        request: { signal }
      })
      const history = HistorySchema.parse(data)
      account = history.viewer
      return history
    },
    async createComment(owner, repo, number, body, signal) {
      const { data } = await octokit.request(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner, repo, issue_number: number, body, request: { signal } }
      )
      return IssueCommentSchema.parse(data)
    },
    async updateComment(owner, repo, id, body, signal) {
      const { data } = await octokit.request(
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { owner, repo, comment_id: id, body, request: { signal } }
      )
      return IssueCommentSchema.parse(data)
    },
    async getPull(owner, repo, number, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
        owner,
        repo,
        pull_number: number,
        request: { signal }
      })
      return PullStateSchema.parse(data)
    },
    async closePull(owner, repo, number, signal) {
      const { data } = await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
        owner,
        repo,
        pull_number: number,
        state: 'closed',
        request: { signal }
      })
      return PullStateSchema.parse(data)
    },
    async requestReviewers(owner, repo, number, reviewers, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
        owner,
        repo,
        pull_number: number,
        reviewers: [...reviewers.users],
        team_reviewers: [...reviewers.teams],
        request: { signal }
      })
    },
    async addLabels(owner, repo, number, labels, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
        owner,
        repo,
        issue_number: number,
        labels: [...labels],
        request: { signal }
      })
    },
    async permission(owner, repo, login, signal) {
      try {
        const { data } = await octokit.request(
          'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
          { owner, repo, username: login, request: { signal } }
        )
        return PermissionSchema.parse(data)
      } catch (error: unknown) {
        // GitHub answers 404 for an account that is not a collaborator.
        if (gitHubError(error).status === 404) return undefined
        throw error
      }
    },
    async getComment(owner, repo, id, signal) {
      try {
        const { data } = await octokit.request(
          'GET /repos/{owner}/{repo}/issues/comments/{comment_id}',
          { owner, repo, comment_id: id, request: { signal } }
        )
        return IssueCommentSchema.parse(data)
      } catch (error: unknown) {
        // GitHub answers 404 for a comment that was deleted.
        if (gitHubError(error).status === 404) return undefined
        throw error
      }
    },
    async react(owner, repo, commentId, content, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
        owner,
        repo,
        comment_id: commentId,
        content,
        request: { signal }
      })
    },
    async branchCommits(owner, repo, branch, since, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/commits', {
        owner,
        repo,
        sha: branch,
        since,
        per_page: 20,
        request: { signal }
      })
      return items(ListedCommitSchema, asList(data))
    },
    async defaultBranch(owner, repo, signal) {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}', {
        owner,
        repo,
        request: { signal }
      })
      return RepositorySchema.parse(data)
    },
    async commitChecks(owner, repo, sha, signal) {
      const [combined, runs] = await Promise.all([
        octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/status', {
          owner,
          repo,
          ref: sha,
          per_page: 100,
          request: { signal }
        }),
        octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
          owner,
          repo,
          ref: sha,
          per_page: 100,
          request: { signal }
        })
      ])
      return {
        statuses: items(ListedStatusSchema, CombinedStatusSchema.parse(combined.data).statuses),
        runs: items(ListedCheckRunSchema, CheckRunsSchema.parse(runs.data).check_runs)
      }
    },
    async createStatus(owner, repo, sha, status, signal) {
      await octokit.request('POST /repos/{owner}/{repo}/statuses/{sha}', {
        owner,
        repo,
        sha,
        state: status.state,
        context: status.context,
        description: status.description,
        ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
        request: { signal }
      })
    }
  }
}
