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
 * The one shape a link named by the platform may have: `https://`, a host (and port), then path
 * segments of the characters GitHub's owner and repository names use (and `pull` and a number),
 * with nothing else: no user info, query, fragment, percent-encoded character, backslash or dot
 * segment. The text must also be exactly what a URL parser makes of it, so no host case, default
 * port or path a parser would rewrite can make two readings of one link.
 */
const STRICT_LINK =
  /^https:\/\/[a-z0-9.-]{1,253}(?::[1-9]\d{0,4})?(?:\/[A-Za-z0-9_.-]{1,100}){1,12}$/

/**
 * `link` parsed, when it matches `shape` and is exactly what a URL parser makes of it (a bare
 * host may leave out the final `/`), with no dot segment; undefined for anything else. The one
 * check behind every strict shape of a link the platform names.
 */
function parsedExactly(link: string, shape: RegExp): URL | undefined {
  if (link.length > 1_000 || !shape.test(link) || !URL.canParse(link)) return undefined
  const url = new URL(link)
  if (url.href !== link && url.href !== `${link}/`) return undefined
  const dotted = url.pathname.split('/').some((segment) => segment === '.' || segment === '..')
  return dotted ? undefined : url
}

/** The path segments of a link in the strict shape; undefined for anything else. */
function strictSegments(link: string): { url: URL; segments: string[] } | undefined {
  const url = parsedExactly(link, STRICT_LINK)
  return url && { url, segments: url.pathname.slice(1).split('/') }
}

/**
 * The path segments of `link` below `serverUrl`, when the link is in the strict shape and on that
 * host (same scheme, host and port, and below its path); undefined for anything else.
 */
function segmentsOn(link: string, serverUrl: string): string[] | undefined {
  const strict = strictSegments(link)
  if (!strict || !URL.canParse(serverUrl)) return undefined
  const server = new URL(serverUrl)
  if (strict.url.origin !== server.origin) return undefined
  const prefix = server.pathname.replace(/\/+$/, '')
  if (!strict.url.pathname.startsWith(`${prefix}/`)) return undefined
  return strict.url.pathname.slice(prefix.length + 1).split('/')
}

/**
 * Whether `link` is a pull request link in the strict shape on any host:
 * `https://<server>/<owner>/<repo>/pull/<n>`, the server a host (and port) without a path, as
 * github.com, GitHub Enterprise Cloud and GitHub Enterprise Server serve them. Where it must
 * lead is checked against the workflow's own GitHub where a token would follow it
 * (`parsePullLink`).
 */
export function isPullLinkShape(link: string): boolean {
  const segments = strictSegments(link)?.segments ?? []
  const [owner = '', repo = '', kind, number] = segments
  return (
    segments.length === 4 && named(owner, repo) && kind === 'pull' && PULL_NUMBER.test(number ?? '')
  )
}

/**
 * Whether `link` is a repository link in the strict shape on any host:
 * `https://<server>/<owner>/<repo>`, with or without `.git`.
 */
export function isRepoLinkShape(link: string): boolean {
  const segments = strictSegments(link)?.segments ?? []
  const [owner = '', repo = ''] = segments
  return segments.length === 2 && named(owner, repo.replace(/\.git$/, ''))
}

const PULL_NUMBER = /^[1-9]\d{0,9}$/

/** An owner and repository name as GitHub allows them. */
function named(owner: string, repo: string): boolean {
  return NAME.test(owner) && NAME.test(repo) && repo !== '.' && repo !== '..'
}

/**
 * The pull request a link names, when it is exactly a pull request's address on `serverUrl`'s
 * host (same scheme, host and port): `https://github.com/acme/docs/pull/110`. Anything else
 * (another host, an issue, a commit, a trailing part, a query) is undefined.
 */
export function parsePullLink(link: string, serverUrl: string): PullRef | undefined {
  const [owner = '', repo = '', kind, number, ...rest] = segmentsOn(link, serverUrl) ?? []
  if (!named(owner, repo)) return undefined
  if (kind !== 'pull' || !PULL_NUMBER.test(number ?? '') || rest.length > 0) return undefined
  return { owner, repo, number: Number(number) }
}

/** A repository on a GitHub host. */
export interface RepoRef {
  readonly owner: string
  readonly repo: string
}

/**
 * The repository a web address names on `serverUrl`'s host (`https://github.com/acme/docs`, with
 * or without `.git`, nothing after it); anything else, another host included, is undefined.
 */
export function parseRepoLink(link: string, serverUrl: string): RepoRef | undefined {
  const segments = segmentsOn(link, serverUrl)
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

/** One DNS label: letters, digits and inner hyphens, at most 63 characters. */
const HOST_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'

/**
 * The one shape a docs site link the platform names may have (a preview deployment's
 * `previewUrl`): `https://`, a host of lower-case DNS labels with at least one dot (and a port),
 * then at most 12 path segments of letters, digits and `_ . ~ -`, with nothing else: no user
 * info, query, fragment, percent-encoded character, backslash or dot segment. Unlike the links
 * above it names a docs site, not GitHub, so no owner or repository is read from it. The text
 * must be exactly what a URL parser makes of it (a bare host may leave out the final `/`).
 */
const SITE_LINK = new RegExp(
  `^https://${HOST_LABEL}(?:\\.${HOST_LABEL})+(?::[1-9]\\d{0,4})?` +
    '(?:/(?:[A-Za-z0-9_.~-]{1,100}(?:/[A-Za-z0-9_.~-]{1,100}){0,11}/?)?)?$'
)

/** Whether `link` is a docs site link in the strict shape (see `SITE_LINK`). */
export function isSiteLinkShape(link: string): boolean {
  const url = parsedExactly(link, SITE_LINK)
  return url !== undefined && url.hostname.length <= 253
}
