/**
 * The checks on the proven docs pull request's head: a failing docs build is what a reviewer of
 * the code change needs to know before merging. What cannot be read is `unknown`, with why.
 */
import { type CommitChecks, describeGitHubError } from './api.js'
import type { ProvenPull } from './docs-handle.js'
import { docsReader, type DocsReaders } from './docs-pull.js'
import type { Within } from '../../base/runtime.js'
import { pullName, sameRepo, type RepoRef } from '../../given/ref.js'

export interface NamedCheck {
  readonly name: string
  /** Only an https link on the workflow's GitHub host; otherwise the name is shown as text. */
  readonly url?: string
}

/** `success` when none failed or runs (or there are none); failing checks in GitHub's order. */
export type DocsChecks =
  | {
      readonly state: 'success' | 'failure' | 'pending'
      readonly failing: readonly NamedCheck[]
      readonly running: readonly NamedCheck[]
    }
  | { readonly state: 'unknown'; readonly why: string }

/**
 * Check run conclusions (GitHub REST docs, "Check runs"; `stale`: incomplete for 14 days): what
 * branch protection does not pass fails; an unlisted one counts as running, never as passed.
 */
export const CONCLUSIONS: Readonly<Record<string, 'pass' | 'fail'>> = {
  success: 'pass',
  neutral: 'pass',
  skipped: 'pass',
  failure: 'fail',
  cancelled: 'fail',
  timed_out: 'fail',
  action_required: 'fail',
  stale: 'fail'
}

/** Commit status states (GitHub REST docs, "Commit statuses"); another counts as running. */
export const STATUS_STATES: Readonly<Record<string, 'pass' | 'fail' | 'run'>> = {
  success: 'pass',
  pending: 'run',
  failure: 'fail',
  error: 'fail'
}

/** The action's own docs check (`Mintlify docs` or `Mintlify docs (<project>)`): never counted. */
export function isOwnContext(context: string): boolean {
  return /^Mintlify docs(?: \(.*\))?$/.test(context)
}

/** `url` when it is an https link on the host of `serverUrl`, without credentials. */
export function linkOnHost(url: string | undefined, serverUrl: string): string | undefined {
  if (!url) return undefined
  try {
    const link = new URL(url)
    const host = new URL(serverUrl).host
    const plain = !link.username && !link.password
    return link.protocol === 'https:' && link.host === host && plain ? link.href : undefined
  } catch {
    return undefined
  }
}

/** Failing beats running beats passed; a run links its `details_url`, else its own page. */
export function classifyChecks(checks: CommitChecks, serverUrl: string): DocsChecks {
  const failing: NamedCheck[] = []
  const running: NamedCheck[] = []
  const named = (name: string, ...urls: (string | undefined)[]): NamedCheck => {
    const url = urls.map((u) => linkOnHost(u, serverUrl)).find(Boolean)
    return url ? { name, url } : { name }
  }
  for (const status of checks.statuses) {
    if (isOwnContext(status.context)) continue
    const counted = STATUS_STATES[status.state] ?? 'run'
    if (counted === 'fail') failing.push(named(status.context, status.targetUrl))
    else if (counted === 'run') running.push(named(status.context, status.targetUrl))
  }
  for (const run of checks.runs) {
    if (isOwnContext(run.name)) continue
    const check = named(run.name, run.detailsUrl, run.htmlUrl)
    if (run.status !== 'completed') running.push(check)
    else {
      const counted = CONCLUSIONS[run.conclusion ?? ''] ?? 'run'
      if (counted === 'fail') failing.push(check)
      else if (counted === 'run') running.push(check)
    }
  }
  const state = failing.length > 0 ? 'failure' : running.length > 0 ? 'pending' : 'success'
  return { state, failing, running }
}

/** The checks on the proven docs pull request's head, read with the token that reads it. */
export async function readDocsChecks(
  proven: ProvenPull,
  code: RepoRef & { readonly serverUrl: string },
  readers: DocsReaders,
  within: Within
): Promise<DocsChecks> {
  const { ref, pull } = proven
  const name = pullName(ref)
  const sha = pull.headSha
  if (!sha || !/^[0-9a-f]{40}$/i.test(sha)) {
    return {
      state: 'unknown',
      why: `GitHub gave no head commit of ${name}, so its checks are not read.`
    }
  }
  const reader = docsReader(readers, sameRepo(ref, code))
  if (!reader) return { state: 'unknown', why: `No token was given that can read ${name}.` }
  const { github, token } = reader
  try {
    const checks = await within((signal) => github.commitChecks(ref.owner, ref.repo, sha, signal))
    return classifyChecks(checks, code.serverUrl)
  } catch (error: unknown) {
    return {
      state: 'unknown',
      why:
        `Could not read the checks of docs pull request ${name}: ` +
        `${describeGitHubError(error, 'checks: read` and `statuses: read', token)}.`
    }
  }
}
