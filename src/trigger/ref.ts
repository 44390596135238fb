/**
 * One reference type for a pull request or a commit on a GitHub host: decided for the code change
 * in `code.ts`, and parsed here from the job's `prLink` for the docs pull request. Pure, and it
 * imports nothing, so the presentation can use it.
 */
/** A commit in a repository. */
export interface CommitRef {
  readonly owner: string
  readonly repo: string
  readonly sha: string
}

/** A pull request in a repository, with its head commit when known. */
export interface PullRef {
  readonly owner: string
  readonly repo: string
  readonly number: number
  readonly headSha?: string
}

/** `owner/repo#number`, as GitHub names a pull request across repositories. */
export function pullName(ref: PullRef): string {
  return `${ref.owner}/${ref.repo}#${ref.number}`
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/

/**
 * The path segments of `link` below `serverUrl`, when the link is on that host (same scheme, host
 * and port, and below its path) and carries no credentials; undefined for anything else.
 */
function segmentsOn(link: string, serverUrl: string): string[] | undefined {
  let url: URL
  let server: URL
  try {
    url = new URL(link)
    server = new URL(serverUrl)
  } catch {
    return undefined
  }
  if (url.origin !== server.origin || url.username || url.password) return undefined
  const prefix = server.pathname.replace(/\/+$/, '')
  if (!url.pathname.startsWith(`${prefix}/`)) return undefined
  return url.pathname.slice(prefix.length + 1).split('/')
}

/** An owner and repository name as GitHub allows them. */
function named(owner: string, repo: string): boolean {
  return NAME.test(owner) && NAME.test(repo) && repo !== '.' && repo !== '..'
}

/**
 * The pull request a link names, when it is a pull request page on `serverUrl`'s host (same
 * scheme, host and port): `https://github.com/acme/docs/pull/110`, with or without a trailing
 * part such as `/files`. Anything else (another host, an issue, a commit) is undefined.
 */
export function parsePullLink(link: string, serverUrl: string): PullRef | undefined {
  const [owner = '', repo = '', kind, number, ...rest] = segmentsOn(link, serverUrl) ?? []
  if (!named(owner, repo)) return undefined
  if (kind !== 'pull' || !/^[1-9]\d{0,9}$/.test(number ?? '') || rest.length > 1) return undefined
  return { owner, repo, number: Number(number) }
}

/** A repository on a GitHub host. */
export interface RepoRef {
  readonly owner: string
  readonly repo: string
}

/**
 * The repository a web address names on `serverUrl`'s host (`https://github.com/acme/docs`, with
 * or without `.git` or a trailing slash); anything else, another host included, is undefined.
 */
export function parseRepoLink(link: string, serverUrl: string): RepoRef | undefined {
  if (URL.canParse(link) && new URL(link).search) return undefined
  const segments = segmentsOn(link, serverUrl)
  while (segments?.at(-1) === '') segments.pop()
  const [owner = '', name = '', ...rest] = segments ?? []
  const repo = name.replace(/\.git$/, '')
  return named(owner, repo) && rest.length === 0 ? { owner, repo } : undefined
}

/** Whether two references name the same repository; GitHub compares names without case. */
export function sameRepo(a: RepoRef, b: RepoRef): boolean {
  return (
    a.owner.toLowerCase() === b.owner.toLowerCase() && a.repo.toLowerCase() === b.repo.toLowerCase()
  )
}
