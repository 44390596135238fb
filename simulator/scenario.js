// @ts-check
import { defaultGitHubSettings } from './github-data.js'
import { GITHUB_ROUTE_KINDS } from './github-routes.js'
import { defaultPreviewKnobs, mergePreviewKnobs } from './preview.js'

/**
 * @typedef {'active' | 'completed' | 'failed' | 'archived'} JobStatus
 * @typedef {import('./rate-limit.js').RateLimit} RateLimit
 * @typedef {import('./routes.js').RouteKind} RouteKind
 * @typedef {import('./github-routes.js').GitHubRouteKind} GitHubRouteKind
 * @typedef {import('./github-data.js').GitHubSettings} GitHubSettings
 */

/**
 * One misbehaviour, consumed by the next request of its kind.
 *
 * @typedef {object} Fault
 * @property {number} [status] status to answer with when there is no `action` (default 500)
 * @property {Record<string, string>} [headers] sent as given; they may replace `x-request-id`
 * @property {string} [body] sent verbatim (default empty)
 * @property {'reset' | 'hang' | 'truncate' | 'slow'} [action] drop the connection, never answer,
 *   answer 200 with JSON cut in half, or (GitHub routes only) answer after `delayMs`: the real
 *   answer, or the fault's own when it has a `status`
 * @property {number} [delayMs] how long a `slow` fault waits before answering
 * @property {boolean} [createJob] handle the request as usual first, so the job exists although
 *   the client only sees the fault (a create whose answer was lost)
 * @property {boolean} [perform] the same for any route: a follow-up is recorded, a GitHub comment
 *   is written, although the client only sees the fault
 */

/**
 * @typedef {object} Scenario
 * @property {number} jobDurationMs
 * @property {boolean} endsAtCreate
 * @property {JobStatus} finalStatus
 * @property {boolean | string} prLink
 * @property {Record<string, unknown>} jobFields
 * @property {string[]} jobIds
 * @property {Record<RouteKind, Fault[]>} faults
 * @property {number} flakiness
 * @property {RateLimit} rateLimit
 * @property {number} staleReadsAfterMessage
 * @property {boolean | string[]} refuseMessages
 * @property {boolean | string | null} followUpPrLink null: as `prLink`
 * @property {string[] | null} projects
 * @property {'write' | 'read'} keyScope
 * @property {string[] | null} ipAllowlist
 * @property {boolean} keyExpired
 * @property {GitHubSettings} github
 * @property {Record<GitHubRouteKind, Fault[]>} githubFaults
 * @property {import('./preview.js').PreviewKnobs} preview
 */

/**
 * What tests and the CLI pass in: every knob optional, nested ones partial.
 *
 * @typedef {object} ScenarioInput
 * @property {number} [jobDurationMs] time from create (or follow-up) until the job ends
 * @property {boolean} [endsAtCreate] the create answer already shows the job as a read at that
 *   moment would: with `jobDurationMs` 0, ended as `finalStatus` says, so a client sees the end
 *   without waiting for its first poll (default false: a job is `active` when created, as the
 *   platform answers). Follow-ups are answered `active` either way
 * @property {JobStatus} [finalStatus] how jobs end; `active` means never
 * @property {boolean | string} [prLink] `true`: a plausible pull request link, `false`: none,
 *   a string: used verbatim
 * @property {Record<string, unknown>} [jobFields] merged over every job in a response; a key set
 *   to `undefined` removes that field
 * @property {string[]} [jobIds] ids handed to created jobs in order, before random ones
 * @property {Partial<Record<RouteKind, Fault[]>>} [faults] queues per route kind
 * @property {number} [flakiness] fraction (0..1) of job reads answered with a transient error
 * @property {number} [seed] reseeds the generator behind `flakiness`
 * @property {Partial<RateLimit>} [rateLimit] creates and follow-ups per project per window
 * @property {number} [staleReadsAfterMessage] after a follow-up message, this many answers about
 *   the job (the message's own first) still show it as it was before the message (its old
 *   terminal status and link)
 * @property {boolean | string[]} [refuseMessages] `true`: every job answers follow-up messages
 *   with 400; a list: only the jobs with these ids
 * @property {boolean | string | null} [followUpPrLink] how a job that had no pull request ends
 *   after a follow-up, like `prLink`; null (the default) follows `prLink`. A job that had one
 *   always ends with the same link
 * @property {string[] | null} [projects] the project ids the API knows (any other answers 404
 *   `Project not found`); null (the default): every id except `proj_unknown`
 * @property {'write' | 'read'} [keyScope] `read`: the key is read-only, so every POST (create,
 *   follow-up) answers 403 while reads work (default `write`)
 * @property {string[] | null} [ipAllowlist] the only client addresses the key may be used from;
 *   a request from any other answers 403 (null, the default: any address)
 * @property {boolean} [keyExpired] the key is the right one but has expired: every request
 *   answers 401
 * @property {GitHubInput} [github] the fake GitHub's data; see `GitHubInput`
 * @property {Partial<Record<GitHubRouteKind, Fault[]>>} [githubFaults] queues per GitHub route
 *   kind, as `faults`
 * @property {import('./preview.js').PreviewInput} [preview] the preview deployments: `available`
 *   (false: the plan has none, 403), `buildMs`, `outcome` (success or failure), the failure's
 *   `summary`, `previewUrl` (verbatim; null: one made from the branch), `rateLimit` (5 a minute
 *   per organization); faults go in `faults.preview` and `faults.previewStatus`
 */

/**
 * The data the fake GitHub serves. Every key is optional: without it the built-in change and
 * pull request 2 of GitHub's examples are served. `pulls`, `commitPulls` and `comments` merge per
 * key (pull request number, sha, issue number); the other keys replace what was there.
 *
 * @typedef {object} GitHubInput
 * @property {string | null} [token] a token accepted (`Bearer` or `token` scheme), for every
 *   repository, as the account `user`; null or absent, and no `tokens`: any non-empty token
 * @property {Record<string, GitHubTokenInput>} [tokens] more tokens by label, each with its
 *   account and the repositories it reaches, e.g. `{ workflow: { token: 'ghs_w', repos:
 *   ['Codertocat/Hello-World'] }, docs: { token: 'ghp_d', user: 'docs-writer', repos:
 *   ['acme/docs'] } }`; a repository outside `repos` answers 404 (403 for a write where it is in
 *   `readOnly`). The label, never the token, is what `simulator.github.requests` records. Merged
 *   per label
 * @property {string} [user] login of the account of `token` (and of any token when neither knob
 *   is set), which writes comments and statuses; GraphQL's `viewer` answers for it (default
 *   `github-actions[bot]`)
 * @property {string[]} [nonCollaborators] logins that are collaborators of no repository: a
 *   review request naming one answers 422, as GitHub does
 * @property {Record<string, string>} [permissions] each collaborator's role (`role_name`:
 *   admin, maintain, write, triage, read, or a custom role) by login, as the collaborator
 *   permission API answers; anyone not listed is no collaborator (404). Replaces the default,
 *   where the example repository's owner `Codertocat` is admin
 * @property {string} [serverUrl] origin of `html_url` links (default `https://github.com`)
 * @property {GitHubFileInput[] | null} [files] the changed files of every compare, commit and
 *   pull request; null: the built-in change
 * @property {GitHubCommitInput[] | null} [commits] the commits every compare lists, oldest first
 *   (without `page` or `per_page`, the newest 250, as GitHub lists them; `total_commits` counts
 *   them all); `commits/{sha}` finds them by sha; null: the compare's head alone
 * @property {Record<string, GitHubPullInput>} [pulls] pull requests by number, in any repository,
 *   or by `owner/name#number`, in that one only (it wins over the number alone): e.g.
 *   `{ 'acme/docs#7': { user: 'docs-writer', labels: ['docs'] } }`; `state` and `merged_at` are
 *   what `pulls/{n}` shows (`merged` is whether `merged_at` is set)
 * @property {Record<string, number[]>} [commitPulls] sha → numbers of the pull requests
 *   `commits/{sha}/pulls` lists (default: `ec26c3e…` → [2]; any other sha: none)
 * @property {Record<string, GitHubCommentInput[]>} [comments] issue number (any repository) or
 *   `owner/name#number` (that one) → comments already on it; a thread is filled the first time
 *   its repository's comments are read or written (`simulator.github.deleteComment(id)` deletes
 *   one later)
 * @property {string[]} [missingCommits] shas or refs GitHub does not know (a compare answers 404,
 *   a commit 422), as after a force push; the zero sha never exists
 * @property {string[]} [history] the branch's commits, oldest first: GraphQL's `history` of one of
 *   them walks back from it through those before it (a commit not listed has only itself)
 * @property {Record<string, { default_branch?: string, private?: boolean }>} [repos] by
 *   `owner/name`: what `repos/{owner}/{repo}` shows (default branch `main`). Merged per key
 * @property {Record<string, GitHubBranchCommitInput[]>} [branchCommits] by `owner/name@branch`:
 *   the branch's commits, newest first, as `commits?sha=<branch>` lists them (filtered by
 *   `since`), e.g. `{ 'acme/docs@main': [{ message: 'Document the flag', author: { login:
 *   'mintlify[bot]' } }] }`; a commit without a date is dated when it is listed. Merged per key
 * @property {Record<string, GitHubChecksInput>} [checks] by sha, by `owner/name#n` for that pull
 *   request's head, or by `owner/name` for every commit of the repository: the commit statuses
 *   and check runs on it, e.g. `{ 'acme/docs#101': { runs: [{ name: 'build', conclusion:
 *   'failure' }] } }`. Merged per key
 */

/**
 * The shapes inside the `github` knobs; GitHub's other fields are filled in.
 *
 * @typedef {'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged'}
 *   DiffStatus
 * @typedef {object} GitHubFileInput a changed file; GitHub's other fields are filled in
 * @property {string} filename
 * @property {DiffStatus} [status] default `modified`
 * @property {string} [patch] the hunks as GitHub sends them; leave it out for a binary file or a
 *   diff too large to show, as GitHub does
 * @property {number} [additions] default: the `+` lines of `patch`
 * @property {number} [deletions] default: the `-` lines of `patch`
 * @property {number} [changes] default `additions + deletions`
 * @property {string} [previous_filename] for `renamed` and `copied`
 * @property {string} [sha] the blob sha; default derived from the name and the commit
 * @typedef {object} GitHubPerson a commit's author or committer; `login: null` is an email no
 *   account claims (the commit's `author` is then null)
 * @property {string} [name]
 * @property {string} [email]
 * @property {string | null} [login] default the repository owner
 * @property {string} [date] ISO 8601
 * @typedef {object} GitHubCommitInput
 * @property {string} [sha] default derived from the message and its place in the list
 * @property {string} message
 * @property {GitHubPerson} [author]
 * @property {GitHubPerson} [committer] default the author
 * @property {string[]} [parents] default: the commit before it in the list, else one made up
 * @property {GitHubFileInput[]} [files] what `commits/{sha}` lists; default the `files` knob
 * @typedef {object} GitHubBranchCommitInput a commit of a branch's list
 * @property {string} [sha] default derived from the branch, its place and message
 * @property {string} message
 * @property {GitHubPerson} [author] `login` is the account GitHub matched (`mintlify[bot]` for the
 *   agent); `date` default: the moment it is listed
 * @property {GitHubPerson} [committer] default the author
 * @typedef {object} GitHubChecksInput the checks on one commit
 * @property {{ context: string, state: 'error' | 'failure' | 'pending' | 'success',
 *   target_url?: string | null, description?: string | null }[]} [statuses] commit statuses,
 *   the latest of each context
 * @property {{ name: string, status?: 'queued' | 'in_progress' | 'completed',
 *   conclusion?: string | null, details_url?: string | null }[]} [runs] check runs;
 *   `status` default `completed` (with a conclusion) or `in_progress` (without one)
 * @typedef {object} GitHubBranchInput
 * @property {string} [ref] branch name
 * @property {string} [sha]
 * @property {string} [repo] `owner/name`; another repository than the base's is a fork
 * @typedef {object} GitHubPullInput
 * @property {string} [title]
 * @property {string | null} [body]
 * @property {'open' | 'closed'} [state] default `open`, or `closed` when `merged_at` is set
 * @property {boolean} [draft]
 * @property {boolean} [locked]
 * @property {string} [user] login of the author, default the repository owner
 * @property {string | null} [merged_at] set: merged (`merged` is true)
 * @property {string | null} [merge_commit_sha]
 * @property {string | null} [closed_at] default `merged_at`
 * @property {GitHubBranchInput} [head]
 * @property {GitHubBranchInput} [base]
 * @property {GitHubFileInput[]} [files] what `pulls/{n}/files` lists; default the `files` knob
 * @property {string[]} [labels] label names it has
 * @property {string[]} [requested_reviewers] logins whose review it asks for
 * @property {string[]} [requested_teams] team slugs whose review it asks for
 * @typedef {object} GitHubTokenInput a token, under a label that stands for it in the records
 * @property {string} token the secret, sent as `Bearer` or `token`
 * @property {string} [user] login of its account (default the `user` knob)
 * @property {string[]} [repos] `owner/name` of the repositories it may use; absent: every one
 * @property {string[]} [readOnly] repositories it may read but not write (writes answer 403)
 * @typedef {object} GitHubCommentInput
 * @property {string} body
 * @property {string} [user] login of the author, default the repository owner
 * @property {number} [id] default: the next free id
 * @property {string} [created_at] default: the simulator's clock
 * @property {string} [updated_at] default `created_at`
 */

export const STATUSES = /** @type {const} */ (['active', 'completed', 'failed', 'archived'])

/** @returns {Scenario} */
export function defaultScenario() {
  return {
    jobDurationMs: 3000,
    endsAtCreate: false,
    finalStatus: 'completed',
    prLink: true,
    jobFields: {},
    jobIds: [],
    faults: { create: [], get: [], message: [], preview: [], previewStatus: [] },
    flakiness: 0,
    rateLimit: { limit: 100, windowMs: 3_600_000 },
    staleReadsAfterMessage: 0,
    refuseMessages: false,
    followUpPrLink: null,
    projects: null,
    keyScope: 'write',
    ipAllowlist: null,
    keyExpired: false,
    github: defaultGitHubSettings(),
    githubFaults: /** @type {Record<GitHubRouteKind, Fault[]>} */ (
      /** @type {unknown} */ (Object.fromEntries(GITHUB_ROUTE_KINDS.map((kind) => [kind, []])))
    ),
    preview: defaultPreviewKnobs()
  }
}

/**
 * Applies knobs over a scenario. Queues are copied so the simulator never consumes arrays the
 * caller still holds; `faults`, `githubFaults`, `rateLimit` and `github` merge per key so one
 * queue, one number or one kind of GitHub data can be changed alone.
 *
 * @param {Scenario} base
 * @param {ScenarioInput} input
 * @returns {Scenario}
 */
export function mergeScenario(base, input) {
  const next = {
    ...base,
    faults: { ...base.faults },
    rateLimit: { ...base.rateLimit },
    githubFaults: { ...base.githubFaults }
  }
  if (input.jobDurationMs !== undefined) {
    next.jobDurationMs = check(input.jobDurationMs, 'jobDurationMs', (v) => v >= 0)
  }
  if (input.endsAtCreate !== undefined) {
    if (typeof input.endsAtCreate !== 'boolean') {
      throw new TypeError('scenario knob endsAtCreate must be true or false')
    }
    next.endsAtCreate = input.endsAtCreate
  }
  if (input.finalStatus !== undefined) {
    if (!STATUSES.includes(input.finalStatus)) {
      throw new TypeError(
        `finalStatus must be one of ${STATUSES.join(', ')}; got ${String(input.finalStatus)}`
      )
    }
    next.finalStatus = input.finalStatus
  }
  if (input.prLink !== undefined) next.prLink = input.prLink
  if (input.jobFields !== undefined) next.jobFields = { ...input.jobFields }
  if (input.jobIds !== undefined) next.jobIds = [...input.jobIds]
  for (const kind of /** @type {const} */ ([
    'create',
    'get',
    'message',
    'preview',
    'previewStatus'
  ])) {
    const queue = input.faults?.[kind]
    if (queue !== undefined) next.faults[kind] = queue.map((fault) => ({ ...fault }))
  }
  if (input.flakiness !== undefined) {
    next.flakiness = check(input.flakiness, 'flakiness', (v) => v >= 0 && v <= 1)
  }
  if (input.rateLimit?.limit !== undefined) {
    next.rateLimit.limit = check(input.rateLimit.limit, 'rateLimit.limit', (v) => v >= 0)
  }
  if (input.rateLimit?.windowMs !== undefined) {
    next.rateLimit.windowMs = check(input.rateLimit.windowMs, 'rateLimit.windowMs', (v) => v > 0)
  }
  if (input.staleReadsAfterMessage !== undefined) {
    next.staleReadsAfterMessage = check(
      input.staleReadsAfterMessage,
      'staleReadsAfterMessage',
      (v) => v >= 0 && Number.isInteger(v)
    )
  }
  if (input.refuseMessages !== undefined) {
    const refuse = input.refuseMessages
    if (typeof refuse !== 'boolean' && !isStringArray(refuse)) {
      throw new TypeError('scenario knob refuseMessages must be true, false or a list of job ids')
    }
    next.refuseMessages = typeof refuse === 'boolean' ? refuse : [...refuse]
  }
  if (input.followUpPrLink !== undefined) {
    const link = input.followUpPrLink
    if (link !== null && typeof link !== 'boolean' && typeof link !== 'string') {
      throw new TypeError('scenario knob followUpPrLink must be true, false, a link or null')
    }
    next.followUpPrLink = link
  }
  if (input.projects !== undefined) {
    if (input.projects !== null && !isStringArray(input.projects)) {
      throw new TypeError('scenario knob projects must be a list of project ids or null')
    }
    next.projects = input.projects === null ? null : [...input.projects]
  }
  if (input.keyScope !== undefined) {
    if (input.keyScope !== 'write' && input.keyScope !== 'read') {
      throw new TypeError(
        `scenario knob keyScope must be write or read; got ${String(input.keyScope)}`
      )
    }
    next.keyScope = input.keyScope
  }
  if (input.ipAllowlist !== undefined) {
    if (input.ipAllowlist !== null && !isStringArray(input.ipAllowlist)) {
      throw new TypeError('scenario knob ipAllowlist must be a list of IP addresses or null')
    }
    next.ipAllowlist = input.ipAllowlist === null ? null : [...input.ipAllowlist]
  }
  if (input.keyExpired !== undefined) {
    if (typeof input.keyExpired !== 'boolean') {
      throw new TypeError('scenario knob keyExpired must be true or false')
    }
    next.keyExpired = input.keyExpired
  }
  for (const kind of GITHUB_ROUTE_KINDS) {
    const queue = input.githubFaults?.[kind]
    if (queue === undefined) continue
    queue.forEach((fault, index) => {
      if (fault.action === 'slow' && !(typeof fault.delayMs === 'number' && fault.delayMs >= 0)) {
        throw new TypeError(`githubFaults.${kind}[${index}]: a slow fault needs delayMs`)
      }
    })
    next.githubFaults[kind] = queue.map((fault) => ({ ...fault }))
  }
  if (input.githubFaults !== undefined) {
    const unknown = Object.keys(input.githubFaults).filter(
      (kind) => !GITHUB_ROUTE_KINDS.includes(/** @type {GitHubRouteKind} */ (kind))
    )
    if (unknown.length > 0) {
      throw new TypeError(
        `githubFaults has no route kind ${unknown.join(', ')}; ` +
          `the kinds are ${GITHUB_ROUTE_KINDS.join(', ')}`
      )
    }
  }
  if (input.github !== undefined) next.github = mergeGitHub(base.github, input.github)
  if (input.preview !== undefined) next.preview = mergePreviewKnobs(base.preview, input.preview)
  return next
}

/**
 * @param {GitHubSettings} base
 * @param {GitHubInput} input
 * @returns {GitHubSettings}
 */
function mergeGitHub(base, input) {
  const next = {
    ...base,
    tokens: { ...base.tokens },
    pulls: { ...base.pulls },
    commitPulls: { ...base.commitPulls },
    comments: { ...base.comments },
    repos: { ...base.repos },
    branchCommits: { ...base.branchCommits },
    checks: { ...base.checks }
  }
  if (input.token !== undefined) {
    if (input.token !== null && (typeof input.token !== 'string' || input.token === '')) {
      throw new TypeError('scenario knob github.token must be a non-empty string or null')
    }
    next.token = input.token
  }
  for (const [label, known] of Object.entries(input.tokens ?? {})) {
    const name = `scenario knob github.tokens.${label}`
    if (typeof known?.token !== 'string' || known.token === '') {
      throw new TypeError(`${name}.token must be a non-empty string`)
    }
    if (known.user !== undefined && (typeof known.user !== 'string' || known.user === '')) {
      throw new TypeError(`${name}.user must be a login`)
    }
    for (const field of /** @type {const} */ (['repos', 'readOnly'])) {
      const list = known[field]
      if (
        list !== undefined &&
        !(isStringArray(list) && list.every((r) => /^[^/]+\/[^/]+$/.test(r)))
      ) {
        throw new TypeError(`${name}.${field} must list repositories as owner/name`)
      }
    }
    next.tokens[label] = {
      token: known.token,
      user: known.user ?? input.user ?? base.user,
      repos: known.repos ? [...known.repos] : null,
      readOnly: [...(known.readOnly ?? [])]
    }
  }
  if (input.nonCollaborators !== undefined) {
    if (!isStringArray(input.nonCollaborators)) {
      throw new TypeError('scenario knob github.nonCollaborators must list logins')
    }
    next.nonCollaborators = [...input.nonCollaborators]
  }
  if (input.permissions !== undefined) {
    const roles = Object.values(input.permissions ?? {})
    if (typeof input.permissions !== 'object' || roles.some((r) => typeof r !== 'string' || !r)) {
      throw new TypeError('scenario knob github.permissions must map logins to roles')
    }
    next.permissions = { ...input.permissions }
  }
  if (input.user !== undefined) {
    if (typeof input.user !== 'string' || input.user === '') {
      throw new TypeError('scenario knob github.user must be a login')
    }
    next.user = input.user
  }
  if (input.serverUrl !== undefined) {
    if (typeof input.serverUrl !== 'string' || !/^https?:\/\/[^/]/.test(input.serverUrl)) {
      throw new TypeError('scenario knob github.serverUrl must be an http(s) origin')
    }
    next.serverUrl = input.serverUrl.replace(/\/+$/, '')
  }
  if (input.files !== undefined) {
    if (input.files !== null) checkFiles(input.files, 'github.files')
    next.files = input.files === null ? null : input.files.map((file) => ({ ...file }))
  }
  if (input.commits !== undefined) {
    if (input.commits !== null) {
      input.commits.forEach((commit, index) => {
        if (typeof commit?.message !== 'string') {
          throw new TypeError(`scenario knob github.commits[${index}] needs a message`)
        }
        if (commit.files) checkFiles(commit.files, `github.commits[${index}].files`)
      })
    }
    next.commits = input.commits === null ? null : input.commits.map((commit) => ({ ...commit }))
  }
  for (const [number, pull] of Object.entries(input.pulls ?? {})) {
    if (!NUMBER_KEY.test(number)) {
      throw new TypeError(
        `scenario knob github.pulls is keyed by number or owner/name#number; got "${number}"`
      )
    }
    for (const field of /** @type {const} */ ([
      'labels',
      'requested_reviewers',
      'requested_teams'
    ])) {
      if (pull[field] !== undefined && !isStringArray(pull[field])) {
        throw new TypeError(`scenario knob github.pulls.${number}.${field} must list names`)
      }
    }
    if (pull.files) checkFiles(pull.files, `github.pulls.${number}.files`)
    next.pulls[number] = { ...pull }
  }
  for (const [sha, numbers] of Object.entries(input.commitPulls ?? {})) {
    if (!Array.isArray(numbers) || !numbers.every((n) => Number.isInteger(n) && n > 0)) {
      throw new TypeError(`scenario knob github.commitPulls.${sha} must list pull numbers`)
    }
    next.commitPulls[sha] = [...numbers]
  }
  for (const [number, list] of Object.entries(input.comments ?? {})) {
    if (!NUMBER_KEY.test(number)) {
      throw new TypeError(
        `scenario knob github.comments is keyed by number or owner/name#number; got "${number}"`
      )
    }
    if (!Array.isArray(list) || !list.every((c) => typeof c?.body === 'string')) {
      throw new TypeError(`scenario knob github.comments.${number} must list { body } objects`)
    }
    next.comments[number] = list.map((comment) => ({ ...comment }))
  }
  if (input.missingCommits !== undefined) {
    if (!isStringArray(input.missingCommits)) {
      throw new TypeError('scenario knob github.missingCommits must list shas or refs')
    }
    next.missingCommits = [...input.missingCommits]
  }
  for (const [name, repo] of Object.entries(input.repos ?? {})) {
    if (!/^[^/@#\s]+\/[^/@#\s]+$/.test(name) || typeof repo !== 'object' || repo === null) {
      throw new TypeError(`scenario knob github.repos is keyed by owner/name; got "${name}"`)
    }
    next.repos[name] = { ...repo }
  }
  for (const [name, list] of Object.entries(input.branchCommits ?? {})) {
    if (!/^[^/@#\s]+\/[^/@#\s]+@.+$/.test(name)) {
      throw new TypeError(
        `scenario knob github.branchCommits is keyed by owner/name@branch; got "${name}"`
      )
    }
    if (!Array.isArray(list) || !list.every((c) => typeof c?.message === 'string')) {
      throw new TypeError(
        `scenario knob github.branchCommits.${name} must list { message } objects`
      )
    }
    next.branchCommits[name] = list.map((commit) => ({ ...commit }))
  }
  for (const [name, checks] of Object.entries(input.checks ?? {})) {
    const runs = checks?.runs ?? []
    const statuses = checks?.statuses ?? []
    if (
      !Array.isArray(runs) ||
      !Array.isArray(statuses) ||
      !runs.every((r) => typeof r?.name === 'string') ||
      !statuses.every((s) => typeof s?.context === 'string' && typeof s.state === 'string')
    ) {
      throw new TypeError(
        `scenario knob github.checks.${name} takes runs ({ name }) and statuses ({ context, state })`
      )
    }
    next.checks[name] = {
      runs: runs.map((r) => ({ ...r })),
      statuses: statuses.map((s) => ({ ...s }))
    }
  }
  if (input.history !== undefined) {
    if (!isStringArray(input.history)) {
      throw new TypeError('scenario knob github.history must list shas, oldest first')
    }
    next.history = [...input.history]
  }
  return next
}

/** A pull request or issue: `7` in any repository, or `owner/name#7` in that one. */
const NUMBER_KEY = /^(?:[^/#\s]+\/[^/#\s]+#)?[1-9]\d*$/

const DIFF_STATUSES = ['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged']

/**
 * @param {GitHubFileInput[]} files
 * @param {string} name
 */
function checkFiles(files, name) {
  if (!Array.isArray(files)) throw new TypeError(`scenario knob ${name} must be a list of files`)
  files.forEach((file, index) => {
    if (typeof file?.filename !== 'string' || file.filename === '') {
      throw new TypeError(`scenario knob ${name}[${index}] needs a filename`)
    }
    if (file.status !== undefined && !DIFF_STATUSES.includes(file.status)) {
      throw new TypeError(
        `scenario knob ${name}[${index}].status must be one of ${DIFF_STATUSES.join(', ')}`
      )
    }
  })
}

/**
 * @param {unknown} value
 * @returns {value is string[]}
 */
function isStringArray(value) {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}

/**
 * @param {number} value
 * @param {string} name
 * @param {(value: number) => boolean} ok
 * @returns {number}
 */
function check(value, name, ok) {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    throw new RangeError(`scenario knob ${name} is out of range: ${String(value)}`)
  }
  return value
}
