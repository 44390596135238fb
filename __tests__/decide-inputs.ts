// Inputs for the decision's tests: events as the runner describes them, and what the read stage
// may have learned, as examples and as fast-check arbitraries over every combination.
import fc from 'fast-check'
import { readCommand } from '../src/kinds/command/parse.js'
import type { DecisionSettings } from '../src/run/decide/plan.js'
import { effectsOf, type Plan } from '../src/run/decide/plan.js'
import type { BranchFacts, Facts as AnyFacts, JobFacts, PullFacts } from '../src/run/read/facts.js'
import type { CommandFacts } from '../src/kinds/command/facts.js'
import { known, unknown, type Knowable } from '../src/run/read/known.js'
import { named, type Event } from '../src/given/event.js'

/** Facts as a comment run reads them: its command is its kind's own. */
type Facts = AnyFacts<CommandFacts>

/**
 * Whether a plan writes nothing on GitHub (no check, no status comment, no docs pull request),
 * but at most one inert reaction.
 */
export function writesNothing(plan: Plan): boolean {
  return effectsOf(plan).every((effect) => effect.kind === 'react' && effect.content === 'confused')
}

/** The comment a plan's one inert reaction is on, when it has one. */
export function inertOn(plan: Plan): number | undefined {
  const inert = effectsOf(plan).find((e) => e.kind === 'react' && e.content === 'confused')
  return inert?.kind === 'react' ? inert.commentId : undefined
}

/** The comment a taken command's reactions (`eyes`, then how it ended) are on, when it has them. */
export function acknowledgedOn(plan: Plan): number | undefined {
  const seen = effectsOf(plan).find((e) => e.kind === 'react' && e.content === undefined)
  return seen?.kind === 'react' ? seen.commentId : undefined
}

export const AGENT = 'mintlify[bot]'
export const HUMAN = 'octocat'
export const PROJECT = 'proj_1'
export const [A, B, C, D] = ['a', 'b', 'c', 'd'].map((c) => c.repeat(40)) as [
  string,
  string,
  string,
  string
]
/** The commit every generated event ends on. */
export const HEAD = D

export const SETTINGS: DecisionSettings = {
  agentAccounts: [AGENT],
  jobId: '',
  prompt: 'Document it',
  projectId: PROJECT
}

export function event(name: string, more: Partial<Event> = {}): Event {
  return {
    ...named(name),
    owner: 'o',
    repo: 'r',
    ref: 'refs/heads/main',
    sha: HEAD,
    serverUrl: 'https://github.com',
    deleted: false,
    commits: [],
    ...more
  }
}

export const push = (logins: string[] = [HUMAN], more: Partial<Event> = {}) =>
  event('push', {
    before: C,
    after: HEAD,
    commits: logins.map((login, i) => ({
      sha: i === logins.length - 1 ? HEAD : A,
      message: 'm',
      login
    })),
    ...more
  })

export const pullEvent = (author = HUMAN, action = 'synchronize', merged?: boolean) =>
  event('pull_request', {
    action,
    ref: 'refs/pull/2/merge',
    pullRequest: { number: 2, title: 't', body: '', author, headSha: HEAD, merged }
  })

export const schedule = () => event('schedule')

/** A comment on pull request #2, as an `issue_comment` payload gives it (no head commit). */
export const commentEvent = (
  body: string,
  more: { action?: string; author?: string; authorType?: string } = {}
) =>
  event('issue_comment', {
    action: more.action ?? 'created',
    pullRequest: { number: 2, title: 't', body: '', author: HUMAN, headSha: HEAD },
    comment: {
      id: 11,
      body,
      author: more.author ?? HUMAN,
      authorType: more.authorType ?? (more.author?.endsWith('[bot]') ? 'Bot' : 'User')
    }
  })

export const failed = unknown('GitHub answered 502.')
export const notAsked = unknown('A dry run reads nothing.', 'not-asked')
/** GitHub did not answer in time, or the connection was reset: a re-run may read it. */
export const noAnswer = unknown('GitHub did not answer in time.')
/** A token that may not read it (403, 404): the same on every run. */
export const refused = unknown('GitHub refused (HTTP 403).', 'not-asked')

/** What the read stage leaves of the docs when the job's answer names another than the record. */
export const RECORD_MISMATCH = unknown(
  "The job's answer names o/docs#8, not the recorded one.",
  'not-asked'
)

export function pull(more: Partial<PullFacts> = {}): PullFacts {
  return {
    number: 2,
    headSha: HEAD,
    author: HUMAN,
    docsPull: false,
    recorded: known(undefined),
    ...more
  }
}

export function job(
  from: JobFacts['from'],
  phase: JobFacts['phase'],
  docs: JobFacts['docs'],
  jobId = 'job_rec'
): JobFacts {
  return { jobId, from, phase, docs }
}

/** The facts of a run whose commit belongs to no pull request. */
export function facts(more: Partial<Facts> = {}): Facts {
  return { pulls: known([]), prepared: { prompt: 'Document it\n\n## Context' }, ...more }
}

export function branch(record: BranchFacts['record'], name = 'main'): BranchFacts {
  return { name, record }
}

export const record = (
  told: string,
  more: { jobId?: string; branch?: string; since?: string } = {}
) => known({ jobId: 'job_rec', branch: 'main', since: A.slice(0, 12), told, ...more })

// ——— Arbitraries ———

const login = fc.constantFrom(AGENT, HUMAN, HUMAN, HUMAN, 'dependabot[bot]')
const sha = fc.constantFrom(A, B, C, HEAD)
const phase = fc.constantFrom('running', 'completed', 'failed', 'archived' as const)
const docsState = fc.constantFrom('open', 'merged', 'closed', 'none' as const)
function knowable<T>(value: fc.Arbitrary<T>): fc.Arbitrary<Knowable<T>> {
  return fc.oneof(
    { weight: 8, arbitrary: value.map((v) => known(v)) },
    { weight: 1, arbitrary: fc.constantFrom(failed, noAnswer) },
    { weight: 1, arbitrary: fc.constantFrom(notAsked, refused) }
  )
}

/** Every kind of event the decision meets: pushes, pull request activity, schedules. */
export const anyEvent: fc.Arbitrary<Event> = fc.oneof(
  fc
    .tuple(
      fc.array(login, { minLength: 1, maxLength: 3 }),
      // Now and then the push creates the branch: GitHub gives no commit before it.
      fc.constantFrom(C, C, C, '0'.repeat(40))
    )
    .map(([logins, before]) => push(logins, { before })),
  fc
    .tuple(login, fc.constantFrom('opened', 'synchronize', 'closed'), fc.boolean())
    .map(([author, action, merged]) =>
      pullEvent(author, action, action === 'closed' ? merged : undefined)
    ),
  fc.constantFrom('main', 'feature').map((b) => event('schedule', { ref: `refs/heads/${b}` })),
  fc.constant(event('workflow_dispatch')),
  fc
    .tuple(
      fc.constantFrom(
        '/docs',
        '/docs Also document --retries',
        '   /docs\tplease',
        'LGTM',
        '/docsify',
        '> /docs',
        // Look-alikes: Markdown shows these as code, or something hides before /docs.
        '    /docs',
        '\t/docs',
        '\u00a0/docs'
      ),
      fc.constantFrom('created', 'created', 'created', 'edited', 'deleted'),
      fc.constantFrom(HUMAN, HUMAN, 'github-actions[bot]', AGENT)
    )
    .map(([body, action, author]) => commentEvent(body, { action, author }))
)

/** GitHub's roles, an organisation's custom one, and no collaborator at all. */
const role = fc.constantFrom('admin', 'maintain', 'write', 'triage', 'read', 'docs-team', undefined)

/**
 * What a comment run reads first: the command, as the real parser (`readCommand`) reads the
 * comment the way the read stage hands it over, and what GitHub says its author may do (known,
 * failed or not asked). Now and then a writer's command that no longer stands (`stopped`).
 */
function commandFacts(ev: Event): fc.Arbitrary<CommandFacts | undefined> {
  const comment = ev.comment
  const parsed = readCommand({
    action: ev.action,
    onPullRequest: ev.pullRequest !== undefined,
    body: comment?.body ?? '',
    login: comment?.author,
    type: comment?.authorType
  })
  if (parsed.kind === 'ignored') return fc.constant(parsed)
  const { request, login } = parsed
  // A payload may leave the comment's id out: then there is nothing to react to.
  const commentId = fc.constantFrom(comment?.id, comment?.id, comment?.id, undefined)
  const given = knowable(
    role.map((r) =>
      r === undefined
        ? undefined
        : { role: r, permission: r === 'docs-team' ? 'write' : r === 'maintain' ? 'write' : r }
    )
  ).chain((permission) =>
    commentId.map((id) => ({ kind: 'command' as const, request, login, commentId: id, permission }))
  )
  const stopped = fc.tuple(fc.boolean(), commentId).map(([answer, id]) => ({
    kind: 'stopped' as const,
    login,
    commentId: id,
    why: 'The comment was edited since.',
    answer
  }))
  return fc.oneof({ weight: 9, arbitrary: given }, { weight: 1, arbitrary: stopped })
}

export const anySettings: fc.Arbitrary<DecisionSettings> = fc.record({
  agentAccounts: fc.constant([AGENT]),
  jobId: fc.constantFrom('', '', '', '', '', '', '', 'job_given'),
  prompt: fc.constantFrom('Document it', ''),
  projectId: fc.constant(PROJECT)
})

const anyPull: fc.Arbitrary<PullFacts> = fc.record({
  number: fc.constantFrom(2, 3),
  headSha: sha,
  author: login,
  docsPull: fc.constantFrom(false, false, false, false, false, true),
  recorded: knowable(
    fc.option(
      fc.record({
        projectId: fc.constantFrom(PROJECT, PROJECT, 'proj_other'),
        jobId: fc.constantFrom('job_pull', 'job_other'),
        sha: fc.option(sha, { nil: undefined })
      }),
      { nil: undefined, freq: 6 }
    )
  )
})

const anyRecord = knowable(
  fc.option(
    fc.record({
      jobId: fc.constantFrom('job_branch', 'job_other'),
      branch: fc.constantFrom('main', 'main', 'feature'),
      since: fc.option(fc.constantFrom(A.slice(0, 12), B.slice(0, 7)), { nil: undefined }),
      told: sha
    }),
    { nil: undefined, freq: 6 }
  )
)

/**
 * What the read stage may have learned for `event`: the commit's pull requests, the one it
 * belongs to and its comment's record, the branch's record, the recorded job and its docs pull
 * request, and the change (or its skip) — each known, failed or not asked.
 */
export function anyFacts(ev: Event): fc.Arbitrary<Facts> {
  const pullsOf: fc.Arbitrary<
    Knowable<readonly { number: number; author?: string; headSha?: string }[]>
  > = ev.pullRequest
    ? fc.constant(
        known([
          {
            number: ev.pullRequest.number,
            author: ev.pullRequest.author,
            headSha: ev.pullRequest.headSha
          }
        ])
      )
    : knowable(
        fc.array(
          fc.record({
            number: fc.constantFrom(2, 3, 4),
            author: login,
            // GitHub lists a pull request's head; now and then none is given.
            headSha: fc.option(sha, { nil: undefined, freq: 8 })
          }),
          { maxLength: 3 }
        )
      )
  return fc
    .record({
      pulls: pullsOf,
      pull: anyPull,
      gathers: fc.boolean(),
      branchName: fc.constantFrom('main', 'feature'),
      record: anyRecord,
      phase: knowable(phase),
      docs: knowable(docsState),
      jobFrom: fc.constantFrom('pull', 'branch' as const),
      hasJob: fc.constantFrom(true, true, true, false),
      // Now and then the recorded job's answer names another docs pull request than the record.
      mismatch: fc.constantFrom(false, false, false, false, false, true),
      kind: commandFacts(ev),
      prepared: fc.option(
        fc.record({
          prompt: fc.constantFrom('Document it\n\n## Context', ''),
          // Now and then, `paths` found nothing to document (or the branch was deleted).
          skip: fc.oneof(
            { weight: 5, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.constant('None of the changed files matches paths.') }
          )
        }),
        { nil: undefined }
      )
    })
    .map((r): Facts => {
      const only = r.pulls.known && r.pulls.value.length === 1 ? r.pulls.value[0] : undefined
      const thePull = only
        ? { ...r.pull, number: only.number, author: only.author, headSha: only.headSha }
        : undefined
      const recorded = thePull?.recorded.known ? thePull.recorded.value : undefined
      const gathers = r.gathers && !ev.pullRequest
      // As the read stage does: a pull request that records a job leaves the branch's record unread.
      const branchFacts = gathers
        ? { name: r.branchName, record: recorded ? notAsked : r.record }
        : undefined
      const branchRecord = branchFacts?.record.known ? branchFacts.record.value : undefined
      // Mostly the job of the record there is; now and then one that does not match it.
      const from = r.jobFrom === 'branch' && branchRecord ? 'branch' : recorded ? 'pull' : r.jobFrom
      const jobId = from === 'pull' ? recorded?.jobId : branchRecord?.jobId
      const mismatch =
        r.mismatch &&
        from === 'pull' &&
        recorded?.projectId === PROJECT &&
        r.phase.known &&
        ev.action !== 'closed'
          ? { recorded: { owner: 'o', repo: 'docs', number: 7 }, named: 'o/docs#8' }
          : undefined
      const theJob =
        r.hasJob && jobId
          ? mismatch
            ? { jobId, from, phase: r.phase, docs: RECORD_MISMATCH, mismatch }
            : { jobId, from, phase: r.phase, docs: r.docs }
          : undefined
      return {
        ...(ev.name === 'issue_comment' ? { kind: r.kind } : {}),
        pulls: r.pulls,
        pull: thePull,
        branch: branchFacts,
        job: theJob,
        prepared: gathers ? r.prepared : (r.prepared ?? { prompt: 'Document it' })
      }
    })
}

/** A generated run: settings, an event and what is known of it. */
export const anyRun = fc
  .tuple(anySettings, anyEvent)
  .chain(([settings, ev]) => anyFacts(ev).map((f) => ({ settings, event: ev, facts: f })))

/** What a record says the job was told: any commit, this one, or this one by its short sha. */
const toldSha = fc.constantFrom(A, B, HEAD, HEAD, HEAD.slice(0, 7), undefined)

/**
 * Runs whose change a record of this project's job speaks for: the pull request's status comment
 * (with the job read from it) or, for a run with no pull request, the branch's docs check. The
 * job's phase and docs pull request are anything the read stage may see, and what the job was
 * told is often this very commit, so every rule of a recorded job is met often, not by chance.
 */
/** A `/docs` command by someone GitHub says may write, as the parser reads the comment. */
const writerCommandRun = fc
  .tuple(anySettings, fc.constantFrom('/docs', '/docs Also document --retries', ' /docs\nplease'))
  .chain(([settings, body]) => {
    const ev = commentEvent(body)
    const parsed = readCommand({
      action: ev.action,
      onPullRequest: true,
      body,
      login: ev.comment?.author,
      type: ev.comment?.authorType
    })
    if (parsed.kind !== 'command') throw new Error(`${JSON.stringify(body)} is no command.`)
    const permission = known({ role: 'write', permission: 'write' })
    const command = { ...parsed, commentId: ev.comment?.id, permission }
    return anyFacts(ev).map((f) => ({ settings, event: ev, facts: { ...f, command } }))
  })

/** A commit as GitHub names one: its short form is no suffix of it, as `HEAD`'s would be. */
export const REAL_HEAD = '3f786850e387550fdab836ed7e6dc881de23001b'

/** The same run on a commit whose sha is not one repeated character. */
function onRealHead<T>(run: T): T {
  const text = JSON.stringify(run)
    .replaceAll(HEAD, REAL_HEAD)
    .replaceAll(`"${HEAD.slice(0, 7)}"`, `"${REAL_HEAD.slice(0, 7)}"`)
  return JSON.parse(text) as T
}

const recordedRun = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: anyRun }, { weight: 1, arbitrary: writerCommandRun }),
    fc.boolean(),
    knowable(phase),
    knowable(docsState),
    toldSha,
    fc.option(fc.constantFrom(HEAD, B), { nil: undefined, freq: 4 }),
    fc.option(fc.constantFrom(A.slice(0, 12), C), { nil: undefined, freq: 4 }),
    // Now and then the job read is not the one the record names.
    fc.constantFrom('', '', '', '', '', 'job_other')
  )
  .map(([run, onPull, phaseRead, docsRead, told, headSha, since, other]): typeof run => {
    const { event: ev, facts: f } = run
    if (onPull || ev.pullRequest) {
      const head = ev.pullRequest ? ev.pullRequest.headSha : headSha
      const recorded = known({ projectId: PROJECT, jobId: 'job_pull', sha: told })
      return {
        ...run,
        facts: {
          ...f,
          pulls: known([{ number: 2, author: HUMAN, headSha: head }]),
          pull: { number: 2, headSha: head, author: HUMAN, docsPull: false, recorded },
          branch: f.branch && { name: f.branch.name, record: notAsked },
          job: { jobId: other || 'job_pull', from: 'pull', phase: phaseRead, docs: docsRead }
        }
      }
    }
    const branchRecord = known({ jobId: 'job_branch', branch: 'main', since, told: told ?? B })
    return {
      ...run,
      facts: {
        ...f,
        pulls: known([]),
        pull: undefined,
        branch: { name: 'main', record: branchRecord },
        job: { jobId: other || 'job_branch', from: 'branch', phase: phaseRead, docs: docsRead }
      }
    }
  })

/** Recorded runs, now and then on a commit with a realistic sha (short forms told apart). */
export const anyRecordedRun = fc
  .tuple(recordedRun, fc.boolean())
  .map(([run, real]) => (real ? onRealHead(run) : run))
