/**
 * References to pull requests, commits and repositories on a GitHub host, and the strict shapes
 * of links the platform names. Imports nothing, so the presentation can use it.
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
 * `https://`, a host, then segments of the characters GitHub names use: no user info, query,
 * fragment, percent-encoding or backslash that could give one link two readings.
 */
const STRICT_LINK =
  /^https:\/\/[a-z0-9.-]{1,253}(?::[1-9]\d{0,4})?(?:\/[A-Za-z0-9_.-]{1,100}){1,12}$/

/**
 * `link` parsed, when it matches `shape` and is exactly what a URL parser makes of it, so no
 * case, default port or dot segment the parser rewrites can make two readings of one link.
 */
function parsedExactly(link: string, shape: RegExp): URL | undefined {
  if (link.length > 1_000 || !shape.test(link) || !URL.canParse(link)) return undefined
  const url = new URL(link)
  if (url.href !== link && url.href !== `${link}/`) return undefined
  const dotted = url.pathname.split('/').some((segment) => segment === '.' || segment === '..')
  return dotted ? undefined : url
}

const strictSegments = (link: string) =>
  parsedExactly(link, STRICT_LINK)?.pathname.slice(1).split('/')

/** The path segments of a strict `link` below `serverUrl` (same origin, below its path). */
function segmentsOn(link: string, serverUrl: string): string[] | undefined {
  const url = parsedExactly(link, STRICT_LINK)
  if (!url || !URL.canParse(serverUrl)) return undefined
  const server = new URL(serverUrl)
  if (url.origin !== server.origin) return undefined
  const prefix = server.pathname.replace(/\/+$/, '')
  if (!url.pathname.startsWith(`${prefix}/`)) return undefined
  return url.pathname.slice(prefix.length + 1).split('/')
}

/** An owner and repository name as GitHub allows them. */
function named(owner: string, repo: string): boolean {
  return NAME.test(owner) && NAME.test(repo) && repo !== '.' && repo !== '..'
}

function pullIn(segments: readonly string[] = []): PullRef | undefined {
  const [owner = '', repo = '', kind, number = '', ...rest] = segments
  const shaped = named(owner, repo) && kind === 'pull' && /^[1-9]\d{0,9}$/.test(number)
  return shaped && rest.length === 0 ? { owner, repo, number: Number(number) } : undefined
}

function repoIn(segments: readonly string[] = []): RepoRef | undefined {
  const [owner = '', name = '', ...rest] = segments
  const repo = name.replace(/\.git$/, '')
  return named(owner, repo) && rest.length === 0 ? { owner, repo } : undefined
}

/**
 * Whether `link` is `https://<host>/<owner>/<repo>/pull/<n>` in the strict shape, on any host;
 * `parsePullLink` checks the host where a token would follow it.
 */
export function isPullLinkShape(link: string): boolean {
  return pullIn(strictSegments(link)) !== undefined
}

/** Whether `link` is `https://<host>/<owner>/<repo>`, `.git` or not, in the strict shape. */
export function isRepoLinkShape(link: string): boolean {
  return repoIn(strictSegments(link)) !== undefined
}

/** The pull request a link names, only when it is exactly one's address on `serverUrl`. */
export function parsePullLink(link: string, serverUrl: string): PullRef | undefined {
  return pullIn(segmentsOn(link, serverUrl))
}

/** A repository on a GitHub host. */
export interface RepoRef {
  readonly owner: string
  readonly repo: string
}

/** The repository a link names, only when it is exactly one's address on `serverUrl`. */
export function parseRepoLink(link: string, serverUrl: string): RepoRef | undefined {
  return repoIn(segmentsOn(link, serverUrl))
}

/** Whether two references name the same repository; GitHub compares names without case. */
export function sameRepo(a: RepoRef, b: RepoRef): boolean {
  return (
    a.owner.toLowerCase() === b.owner.toLowerCase() && a.repo.toLowerCase() === b.repo.toLowerCase()
  )
}

const HOST_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'

/** A preview deployment's `previewUrl`: a docs site, so no owner or repository is read from it. */
const SITE_LINK = new RegExp(
  `^https://${HOST_LABEL}(?:\\.${HOST_LABEL})+(?::[1-9]\\d{0,4})?` +
    '(?:/(?:[A-Za-z0-9_.~-]{1,100}(?:/[A-Za-z0-9_.~-]{1,100}){0,11}/?)?)?$'
)

/** Whether `link` is a docs site link in the strict shape. */
export function isSiteLinkShape(link: string): boolean {
  const url = parsedExactly(link, SITE_LINK)
  return url !== undefined && url.hostname.length <= 253
}
