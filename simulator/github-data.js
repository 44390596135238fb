// @ts-check
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/**
 * The fake GitHub's data: the change every compare, commit and pull request shows unless a knob
 * says otherwise, and the commits and pull requests the knobs describe. The defaults line up
 * with GitHub's example event payloads in `__fixtures__/events/`: the repository
 * `Codertocat/Hello-World`, its first commit `6113728…`, and pull request 2 from `changes`
 * (`ec26c3e…`) into `master` (`f95f852…`).
 *
 * @typedef {import('./scenario.js').GitHubFileInput} GitHubFileInput
 * @typedef {import('./scenario.js').GitHubPerson} GitHubPerson
 * @typedef {import('./scenario.js').GitHubCommitInput} GitHubCommitInput
 * @typedef {{ token: string, user: string, repos: string[] | null, readOnly: string[] }}
 *   GitHubToken
 * @typedef {ReturnType<typeof defaultGitHubSettings>} GitHubSettings the `github` knobs (see
 *   `GitHubInput` in `scenario.js`), every default filled in
 * @typedef {{ api: string, server: string, owner: string, repo: string }} Where what an answer
 *   is for: the API origin the request came through (with any `/api/v3`), the web origin, and
 *   the repository of the path
 * @typedef {ReturnType<typeof commitData>} CommitData
 * @typedef {ReturnType<typeof pullData>} PullData
 * @typedef {object} PullChange what was written to a pull request through the simulator
 * @property {'open' | 'closed'} [state]
 * @property {string} [title]
 * @property {string | null} [body]
 * @property {string} [closedAt]
 * @property {string} [updatedAt]
 * @property {string[]} [labels]
 * @property {string[]} [reviewers]
 * @property {string[]} [teams]
 */

const INITIAL_SHA = '6113728f27ae82c7b1a177c8d03f9e96e0adf246'
const PULL_HEAD_SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'
const PULL_BASE_SHA = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e'
/** The pull request of the `pull_request` examples. */
const EXAMPLE_PULL = 2
/** The account of `GITHUB_TOKEN`. */
const ACTIONS_BOT = 'github-actions[bot]'
const CHANGE_DATE = '2019-05-15T15:20:30Z'
const PULL_DATE = '2019-05-15T15:20:33Z'

/** @type {Record<string, { id: number, type: 'User' | 'Organization' | 'Bot' }>} */
const KNOWN_ACCOUNTS = {
  codertocat: { id: 21031067, type: 'User' },
  octocat: { id: 583231, type: 'User' },
  hubot: { id: 480938, type: 'User' },
  'octo-org': { id: 79927191, type: 'Organization' },
  'github-actions[bot]': { id: 41898282, type: 'Bot' },
  // The account Mintlify's agent opens pull requests as, with its id on github.com (GitHub's
  // users API for `mintlify[bot]`).
  'mintlify[bot]': { id: 109931778, type: 'Bot' }
}

/**
 * The repository the simulated agent works on (`REPOSITORY` in `jobs.js`): its pull requests are
 * the agent's, opened as `mintlify[bot]`, unless the `pulls` knob names another author.
 */
const AGENT_REPOSITORY = 'acme/docs'

/**
 * The change every compare, commit and pull request shows by default (`github-change.json`).
 *
 * @type {{ message: string, files: (Omit<GitHubFileInput, 'patch'> & { patch?: string[] })[] }}
 */
const CHANGE = JSON.parse(readFileSync(new URL('./github-change.json', import.meta.url), 'utf8'))
const CHANGE_MESSAGE = CHANGE.message
/** @type {readonly GitHubFileInput[]} */
const DEFAULT_FILES = CHANGE.files.map(({ patch, ...file }) =>
  patch ? { ...file, patch: patch.join('\n') } : file
)

/** @type {Record<string, Partial<GitHubCommitInput> & { tree?: string }>} the examples' commits */
const KNOWN_COMMITS = {
  [INITIAL_SHA]: {
    message: 'Initial commit',
    author: { login: 'Codertocat', date: '2019-05-15T15:19:25Z' },
    parents: [],
    files: [{ filename: 'README.md', status: 'added', patch: '@@ -0,0 +1 @@\n+# Hello-World' }],
    tree: '31b122c26a97cf9af023e9ddab94a82c6e77b0ea'
  },
  [PULL_HEAD_SHA]: { parents: [PULL_BASE_SHA] }
}

export function defaultGitHubSettings() {
  return {
    /** @type {string | null} */
    token: null,
    /** @type {Record<string, GitHubToken>} by label */
    tokens: {},
    user: ACTIONS_BOT,
    /** @type {string[]} */
    nonCollaborators: [],
    /**
     * @type {Record<string, string>} each collaborator's role (`role_name`) by login; anyone
     * else is no collaborator (404). The example repository's owner is its admin.
     */
    permissions: { Codertocat: 'admin' },
    serverUrl: 'https://github.com',
    /** @type {GitHubFileInput[] | null} null: the built-in change */
    files: null,
    /** @type {GitHubCommitInput[] | null} null: the compare's head alone */
    commits: null,
    /** @type {Record<string, import('./scenario.js').GitHubPullInput>} */
    pulls: {},
    /** @type {Record<string, number[]>} */
    commitPulls: { [PULL_HEAD_SHA]: [EXAMPLE_PULL] },
    /** @type {Record<string, import('./scenario.js').GitHubCommentInput[]>} */
    comments: {},
    /** @type {string[]} */
    missingCommits: [],
    /** @type {string[]} the branch's commits, oldest first, as GraphQL's `history` walks them */
    history: [],
    /**
     * @type {Record<string, { default_branch?: string, private?: boolean }>} by `owner/name`:
     * what `GET /repos/{owner}/{repo}` shows (default branch `main`)
     */
    repos: {},
    /**
     * @type {Record<string, import('./scenario.js').GitHubBranchCommitInput[]>} by
     * `owner/name@branch`: the branch's commits, newest first, as `GET …/commits?sha=` lists them
     */
    branchCommits: {},
    /**
     * @type {Record<string, import('./scenario.js').GitHubChecksInput>} by sha or by
     * `owner/name#n` (that pull request's head): the statuses and check runs on the commit
     */
    checks: {}
  }
}

/** A sha-shaped name for made-up objects: the same text always gives the same sha. */
export function fakeSha(/** @type {string} */ text) {
  return createHash('sha1').update(text).digest('hex')
}

/** A stable id in GitHub's range for `text`. */
export function fakeId(/** @type {string} */ text) {
  return 100_000_000 + (parseInt(fakeSha(text).slice(0, 8), 16) % 900_000_000)
}

/** The id and type of the account of a login: an `[bot]` login is an app's. */
export function account(/** @type {string} */ login) {
  const type = /** @type {'Bot' | 'User'} */ (login.endsWith('[bot]') ? 'Bot' : 'User')
  return KNOWN_ACCOUNTS[login.toLowerCase()] ?? { id: fakeId(`user:${login.toLowerCase()}`), type }
}

/**
 * The text between the braces of the first `field { … }` of a GraphQL query: what it selects of
 * that field ('' when the query does not ask for it).
 *
 * @param {string} query @param {string} field
 */
export function selectionOf(query, field) {
  const open = new RegExp(`\\b${field}\\s*(?:\\([^)]*\\)\\s*)?\\{`).exec(query)
  if (!open) return ''
  const start = open.index + open[0].length
  let depth = 1
  for (let at = start; at < query.length; at++) {
    if (query[at] === '{') depth++
    if (query[at] === '}' && --depth === 0) return query.slice(start, at)
  }
  return ''
}

/**
 * GraphQL's `viewer`, as GitHub answers it: typed `User`, so an App's installation token keeps
 * its `[bot]` (`github-actions[bot]`, as REST spells it), with the account's id as `databaseId`
 * when the query selects it.
 *
 * @param {string} login @param {string} selection what the query selects of `viewer`
 */
export function viewerNode(login, selection) {
  const asks = (/** @type {string} */ name) => new RegExp(`\\b${name}\\b`).test(selection)
  return {
    ...(asks('login') ? { login } : {}),
    ...(asks('databaseId') ? { databaseId: account(login).id } : {})
  }
}

/**
 * An account in a GraphQL field typed `Actor` (a status's `creator`), as GitHub answers it: an
 * App's account is a `Bot` whose login has no `[bot]` (`github-actions`), unlike REST and
 * `viewer`. `Actor` has no `databaseId`: the id comes only where the query asks it of the
 * account's own type (`... on Bot { databaseId }`), and `__typename` only when asked.
 *
 * @param {string} login as REST spells it @param {string} selection what the query selects
 */
export function actorNode(login, selection) {
  const { id, type } = account(login)
  const onType = new RegExp(`\\.\\.\\.\\s*on\\s+${type}\\s*\\{[^{}]*\\bdatabaseId\\b`)
  return {
    ...(/\b__typename\b/.test(selection) ? { __typename: type } : {}),
    ...(/\blogin\b/.test(selection)
      ? { login: type === 'Bot' ? login.replace(/\[bot\]$/i, '') : login }
      : {}),
    ...(onType.test(selection) ? { databaseId: id } : {})
  }
}

/**
 * Whether GitHub does not know a ref: the zero sha (the other side of a created or deleted ref)
 * and the `missingCommits` knob.
 *
 * @param {GitHubSettings} settings @param {Where} where @param {string} ref
 */
export function isMissing(settings, where, ref) {
  if (/^0+$/.test(ref)) return true
  const sha = resolveSha(settings, where, ref)
  return settings.missingCommits.some((m) => m === ref || resolveSha(settings, where, m) === sha)
}

/**
 * The full sha of a ref: the known commit its prefix names (knobs, examples), itself when it is
 * a full sha, else one made up from the repository and the name, as a branch points somewhere.
 *
 * @param {GitHubSettings} settings @param {Where} where @param {string} ref
 */
export function resolveSha(settings, where, ref) {
  const lower = ref.toLowerCase()
  if (/^[0-9a-f]{4,40}$/.test(lower)) {
    const pulls = Object.values(settings.pulls).flatMap((p) => [p.head?.sha, p.base?.sha])
    const merges = Object.values(settings.pulls).map((p) => p.merge_commit_sha)
    const knobs = [...knobCommits(settings).map((c) => c.sha), ...Object.keys(settings.commitPulls)]
    const known = [...knobs, ...pulls, ...merges, ...Object.keys(KNOWN_COMMITS)].find(
      (sha) =>
        typeof sha === 'string' &&
        /^[0-9a-f]{40}$/i.test(sha) &&
        sha.toLowerCase().startsWith(lower)
    )
    if (known) return known.toLowerCase()
    if (lower.length === 40) return lower
  }
  return fakeSha(`${where.owner}/${where.repo}@${ref}`.toLowerCase())
}

/** The `commits` knob with every sha filled in. */
function knobCommits(/** @type {GitHubSettings} */ settings) {
  return (settings.commits ?? []).map((commit, index) => ({
    ...commit,
    sha: (commit.sha ?? fakeSha(`commit ${index}: ${commit.message}`)).toLowerCase()
  }))
}

/**
 * A commit: one of the `commits` knob (each the parent of the next), one the examples name, or
 * the default change.
 *
 * @param {GitHubSettings} settings @param {Where} where @param {string} ref
 */
export function commitData(settings, where, ref) {
  const sha = resolveSha(settings, where, ref)
  const listed = knobCommits(settings)
  const at = listed.findIndex((commit) => commit.sha === sha)
  const input = { ...KNOWN_COMMITS[sha], ...listed[at] }
  const author = person(where, input.author, CHANGE_DATE)
  const before = at > 0 ? listed[at - 1]?.sha : undefined
  return {
    sha,
    message: input.message ?? CHANGE_MESSAGE,
    author,
    committer: input.committer ? person(where, input.committer, author.date) : author,
    parents: input.parents ?? [before ?? fakeSha(`${sha}^`)],
    tree: KNOWN_COMMITS[sha]?.tree ?? fakeSha(`tree ${sha}`),
    files: input.files ?? settings.files ?? [...DEFAULT_FILES]
  }
}

/**
 * @param {Where} where @param {GitHubPerson | undefined} input @param {string} date
 * @returns {Required<GitHubPerson>}
 */
function person(where, input, date) {
  const login = input?.login === undefined ? where.owner : input.login
  const email =
    login === null
      ? 'someone@example.com'
      : `${account(login).id}+${login}@users.noreply.github.com`
  const name = input?.name ?? login ?? 'Someone'
  return { name, email: input?.email ?? email, login, date: input?.date ?? date }
}

/**
 * What `compare/{base}...{head}` covers: the commits (the `commits` knob, or the head alone) and
 * the files (the `files` knob, or the built-in change); nothing when both ends are one commit.
 *
 * @param {GitHubSettings} settings @param {Where} where @param {string} baseRef
 * @param {string} headRef
 */
export function comparisonData(settings, where, baseRef, headRef) {
  const base = commitData(settings, where, baseRef)
  const head = commitData(settings, where, headRef)
  if (base.sha === head.sha) return { base, head, commits: [], files: [] }
  const commits =
    settings.commits === null
      ? [{ ...head, parents: [base.sha] }]
      : knobCommits(settings).map((input, index) => {
          const commit = commitData(settings, where, input.sha)
          return index === 0 && !input.parents ? { ...commit, parents: [base.sha] } : commit
        })
  return { base, head, commits, files: settings.files ?? [...DEFAULT_FILES] }
}

/**
 * The entry of a knob keyed by `owner/name#number` or by number alone, in that order.
 *
 * @template T
 * @param {Record<string, T>} knob @param {Where} where @param {number} number
 * @returns {T | undefined}
 */
export function byNumber(knob, where, number) {
  const full = `${where.owner}/${where.repo}#${number}`.toLowerCase()
  const key = Object.keys(knob).find((k) => k.toLowerCase() === full)
  return knob[key ?? String(number)]
}

/**
 * A pull request. Every number is one: 2 is the one of GitHub's examples, the others are the
 * default change on a branch `patch-{number}`; the `pulls` knob sets any field, and `change`
 * holds what was written through the simulator since.
 *
 * @param {GitHubSettings} settings
 * @param {Where} where
 * @param {number} number
 * @param {PullChange} [change]
 */
export function pullData(settings, where, number, change = {}) {
  const input = byNumber(settings.pulls, where, number) ?? {}
  const example = number === EXAMPLE_PULL
  const fullName = `${where.owner}/${where.repo}`
  // The agent's pull requests: job N of `jobs.js` opens #(100 + N) from `mintlify/agent-N`.
  const agentPull = fullName.toLowerCase() === AGENT_REPOSITORY
  const mergedAt = input.merged_at ?? null
  const [title, body] = example
    ? [
        'Update the README with new information.',
        'This is a pretty simple change that we need to pull into master.'
      ]
    : CHANGE_MESSAGE.split('\n\n')
  const state = change.state ?? input.state ?? (mergedAt === null ? 'open' : 'closed')
  const closedAt =
    state === 'open' ? null : (change.closedAt ?? input.closed_at ?? mergedAt ?? PULL_DATE)
  return {
    number,
    title: change.title ?? input.title ?? title ?? '',
    body: [change.body, input.body, body ?? null].find((text) => text !== undefined) ?? null,
    state,
    draft: input.draft ?? false,
    locked: input.locked ?? false,
    created_at: PULL_DATE,
    updated_at: change.updatedAt ?? closedAt ?? PULL_DATE,
    closed_at: closedAt,
    merged_at: mergedAt,
    merge_commit_sha: input.merge_commit_sha ?? null,
    user:
      input.user ?? (fullName.toLowerCase() === AGENT_REPOSITORY ? 'mintlify[bot]' : where.owner),
    labels: change.labels ?? [...(input.labels ?? [])],
    reviewers: change.reviewers ?? [...(input.requested_reviewers ?? [])],
    teams: change.teams ?? [...(input.requested_teams ?? [])],
    head: {
      ref:
        input.head?.ref ??
        (example
          ? 'changes'
          : agentPull && number > 100
            ? `mintlify/agent-${number - 100}`
            : `patch-${number}`),
      sha: input.head?.sha ?? (example ? PULL_HEAD_SHA : fakeSha(`${fullName}#${number}`)),
      repo: input.head?.repo ?? fullName
    },
    base: {
      ref: input.base?.ref ?? 'master',
      sha: input.base?.sha ?? PULL_BASE_SHA,
      repo: input.base?.repo ?? fullName
    },
    files: input.files ?? settings.files ?? [...DEFAULT_FILES]
  }
}

/**
 * The role of `login` on the repositories (`role_name`: admin, maintain, write, triage, read or
 * a custom role), by login in any case; undefined for someone who is no collaborator.
 *
 * @param {{ permissions: Record<string, string> }} settings @param {string} login
 * @returns {string | undefined}
 */
export function roleOf(settings, login) {
  const found = Object.entries(settings.permissions).find(
    ([name]) => name.toLowerCase() === login.toLowerCase()
  )
  return found?.[1]
}

/**
 * The commits of `branch` in the route's repository (the `branchCommits` knob, newest first),
 * each a commit as `commitData` makes one; one without a date is dated `at`, the moment it is
 * listed, so a knob can say "the agent pushed since the job began" without knowing when that was.
 *
 * @param {GitHubSettings} settings @param {Where} where @param {string} branch @param {string} at
 */
export function branchCommitData(settings, where, branch, at) {
  const wanted = `${where.owner}/${where.repo}@${branch}`.toLowerCase()
  const key = Object.keys(settings.branchCommits).find((k) => k.toLowerCase() === wanted)
  const listed = key === undefined ? [] : (settings.branchCommits[key] ?? [])
  return listed.map((input, index) => {
    const sha = (input.sha ?? fakeSha(`${wanted} ${index}: ${input.message}`)).toLowerCase()
    const author = person(where, input.author, input.author?.date ?? at)
    const committer = input.committer ? person(where, input.committer, author.date) : author
    const after = listed[index + 1]
    const parent = after?.sha ?? fakeSha(`${wanted} ${index + 1}: ${after?.message ?? ''}`)
    return {
      sha,
      message: input.message,
      author,
      committer,
      parents: [parent.toLowerCase()],
      tree: fakeSha(`tree ${sha}`),
      files: []
    }
  })
}

/**
 * The statuses and check runs the `checks` knob puts on the commit `sha` of the route's
 * repository: keyed by the sha itself, by `owner/name#n`, the head of that pull request, or by
 * `owner/name`, every commit of that repository.
 *
 * @param {GitHubSettings} settings @param {Where} where @param {string} sha
 * @returns {import('./scenario.js').GitHubChecksInput}
 */
export function checksOn(settings, where, sha) {
  const repo = `${where.owner}/${where.repo}`.toLowerCase()
  for (const [key, checks] of Object.entries(settings.checks)) {
    // `owner/name` alone: every commit of that repository.
    if (/^[^/#@]+\/[^/#@]+$/.test(key)) {
      if (key.toLowerCase() === repo) return checks
      continue
    }
    const pull = /^(.+)#(\d+)$/.exec(key)
    if (pull) {
      if ((pull[1] ?? '').toLowerCase() !== repo) continue
      if (pullData(settings, where, Number(pull[2])).head.sha.toLowerCase() === sha) return checks
    } else if (resolveSha(settings, where, key) === sha) return checks
  }
  return {}
}
