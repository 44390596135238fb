// The decision's rules, each tested both ways over generated runs: "this case ⇒ this plan" and
// "this plan ⇒ this case". The case is worked out here from the inputs alone (a comment's command
// by the real parser, as the read stage reads it); the plan is read only for what a run does —
// `act`, the job, what the check says, what the job is told from, who gets a reaction — never for
// the reason it gives.
import { describe, it } from '@jest/globals'
import fc from 'fast-check'
import { effectsOf } from '../src/run/decide/plan.js'
import { mayCommand, readCommand } from '../src/kinds/command/parse.js'
import type { DecisionSettings } from '../src/run/decide/plan.js'
import { decide } from '../src/kinds/registry.js'
import type { Plan, Start } from '../src/run/decide/plan.js'
import type { Facts as AnyFacts, JobFacts } from '../src/run/read/facts.js'
import type { CommandFacts } from '../src/kinds/command/facts.js'
import type { Event } from '../src/given/event.js'
import {
  acknowledgedOn,
  AGENT,
  anyRecordedRun,
  anyRun,
  inertOn,
  PROJECT,
  writesNothing
} from './decide-inputs.js'

/** Facts as a comment run reads them: its command is its kind's own. */
type Facts = AnyFacts<CommandFacts>

const RUNS = { numRuns: 4000 }

interface Run {
  readonly settings: DecisionSettings
  readonly event: Event
  readonly facts: Facts
}

/** What became of the job a record names, as the read stage saw it. */
type JobState =
  /** Running, or its docs pull request open: it can take more. */
  | 'at-work'
  /** Completed without a docs pull request. */
  | 'no-link'
  /** Failed or archived. */
  | 'failed'
  /** Its docs pull request merged. */
  | 'merged'
  /** Its docs pull request closed. */
  | 'closed'
  /** The job could not be read, or was not there to read. */
  | 'unreadable'
  /** The job was read, its docs pull request GitHub did not answer for. */
  | 'docs-failed'
  /** The job was read, its docs pull request could not be asked for. */
  | 'docs-not-asked'
  /** A dry run: nothing was asked. */
  | 'dry'
  /** The job's answer names another docs pull request than the record. */
  | 'mismatch'

/** A record this run may continue: its job, the commit it was told and where it is kept. */
interface Record {
  readonly from: 'pull' | 'branch'
  readonly jobId: string
  /** This very commit was told to the job. */
  readonly toldHere: boolean
  /** The pull request's head is what the job was told (the pull request's record only). */
  readonly toldPullHead: boolean
  readonly told?: string
  /** The last commit documented before the job began (the branch's record only). */
  readonly since?: string
  readonly state: JobState
}

/** The run, as a case: what its inputs say, worked out without the decision's helpers. */
interface Case {
  readonly kind: 'closed' | 'command' | 'change'
  /** A comment run: what the comment is, and who wrote it. */
  readonly comment?: 'ignored' | 'refused' | 'stopped' | 'writer'
  /** The comment a refused or stopped command is answered on. */
  readonly answerOn?: number
  /** The agent's own work, by the event or the commit's pull requests. */
  readonly own: boolean
  /** GitHub did not say which pull requests the commit belongs to. */
  readonly cannotTell: boolean
  /** `paths` found nothing to document (or the branch was deleted). */
  readonly pathsSkip: boolean
  /** The run reaches the records: no earlier rule decided it. */
  readonly reachesRecord: boolean
  /** The pull request's status comment or the branch's docs checks did not answer. */
  readonly recordFailed: boolean
  /** The pull request's comment records a job of this project. */
  readonly pullRecords: boolean
  /** The one record the run continues, when it has one and the job it names was read. */
  readonly record?: Record
  /** A gathering run whose branch has no record of its own (nor the pull request one). */
  readonly freshBranch: boolean
}

const sameCommit = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a !== '' && b !== '' && (a.startsWith(b) || b.startsWith(a))

const failedRead = (value: { known: boolean; cause?: string } | undefined) =>
  value?.known === false && value.cause === 'failed'

function stateOf(job: JobFacts | undefined, toldHere: boolean): JobState {
  if (!job) return 'unreadable'
  if (!job.phase.known) return job.phase.cause === 'not-asked' ? 'dry' : 'unreadable'
  if (job.mismatch) return 'mismatch'
  const phase = job.phase.value
  if (phase === 'failed' || phase === 'archived') return 'failed'
  if (!job.docs.known) return job.docs.cause === 'failed' ? 'docs-failed' : 'docs-not-asked'
  const docs = job.docs.value
  if (docs === 'merged' || docs === 'closed') return docs
  if (docs === 'none' && phase === 'completed' && !toldHere) return 'no-link'
  return 'at-work'
}

function caseOf({ settings, event, facts }: Run): Case {
  const closing = event.name === 'pull_request' && event.action === 'closed'
  const kind = event.name === 'issue_comment' ? 'command' : closing ? 'closed' : 'change'
  let comment: Case['comment']
  let answerOn: number | undefined
  if (kind === 'command') {
    const parsed = readCommand({
      action: event.action,
      onPullRequest: event.pullRequest !== undefined,
      body: event.comment?.body ?? '',
      login: event.comment?.author,
      type: event.comment?.authorType
    })
    const given = facts.kind
    if (parsed.kind === 'ignored' || given?.kind === 'ignored' || !given) comment = 'ignored'
    else if (given.kind === 'stopped') {
      comment = 'stopped'
      answerOn = given.answer ? given.commentId : undefined
    } else if (!mayCommand(given.permission.known ? given.permission.value : undefined)) {
      comment = 'refused'
      answerOn = given.commentId
    } else comment = 'writer'
  }
  const byEvent =
    event.pullRequest?.author === AGENT ||
    (event.name === 'push' &&
      event.commits.length > 0 &&
      event.commits.every((commit) => commit.login === AGENT))
  const byPulls =
    (facts.pulls.known && facts.pulls.value.some((pull) => pull.author === AGENT)) ||
    facts.pull?.docsPull === true
  const own = byEvent || (kind !== 'closed' && byPulls)
  const cannotTell = !facts.pulls.known && facts.pulls.cause === 'failed'
  const pathsSkip = kind === 'change' && facts.prepared?.skip !== undefined
  const recordFailed =
    failedRead(facts.pull?.recorded) ||
    (facts.branch !== undefined && failedRead(facts.branch.record))
  const reachesRecord =
    kind !== 'closed' &&
    (kind === 'change' || comment === 'writer') &&
    !own &&
    !cannotTell &&
    !pathsSkip &&
    !settings.jobId &&
    !recordFailed

  // The commit the run is about: the pull request's head, the pushed commit, or the run's own.
  const head =
    event.pullRequest?.headSha ?? (event.name === 'push' ? event.after : undefined) ?? event.sha
  const recorded = facts.pull?.recorded.known ? facts.pull.recorded.value : undefined
  let record: Record | undefined
  let freshBranch = false
  if (recorded) {
    const job = facts.job
    if (recorded.projectId === PROJECT && job?.from === 'pull' && job.jobId === recorded.jobId) {
      // A command is a new request: never taken as told already.
      const toldHere = kind === 'change' && sameCommit(recorded.sha, head)
      record = {
        from: 'pull',
        jobId: recorded.jobId,
        told: recorded.sha,
        toldHere,
        toldPullHead: recorded.sha !== undefined && recorded.sha === facts.pull?.headSha,
        state: stateOf(job, toldHere)
      }
    }
  } else if (facts.branch) {
    const value = facts.branch.record.known ? facts.branch.record.value : undefined
    if (value?.branch === facts.branch.name) {
      const job =
        facts.job?.from === 'branch' && facts.job.jobId === value.jobId ? facts.job : undefined
      const toldHere = sameCommit(value.told, head)
      record = {
        from: 'branch',
        jobId: value.jobId,
        told: value.told,
        since: value.since,
        toldHere,
        toldPullHead: false,
        state: stateOf(job, toldHere)
      }
    } else freshBranch = true
  }
  return {
    kind,
    comment,
    answerOn,
    own,
    cannotTell,
    pathsSkip,
    reachesRecord,
    recordFailed,
    pullRecords: recorded?.projectId === PROJECT,
    record,
    freshBranch
  }
}

/** Every generated run, half of them with a record of this project's job, its case and plan. */
const anyDecided = fc.oneof(anyRun, anyRecordedRun).map((run) => ({
  ...run,
  is: caseOf(run),
  plan: decide(run.settings, run.event, run.facts)
}))

/** The commit a push was made onto; none for a branch's first push (GitHub's zero sha). */
const parentOf = (event: Event) =>
  event.name === 'push' && event.before && !/^0+$/.test(event.before) ? event.before : undefined

const implies = (a: boolean, b: boolean) => !a || b
const starts = (plan: Plan): plan is Start =>
  plan.act === 'create' || plan.act === 'follow-up' || plan.act === 'attach'
const greenSkip = (plan: Plan) => plan.act === 'skip' && plan.check === 'success'
const errorSkip = (plan: Plan) => plan.act === 'skip' && plan.check === 'error'
/** A recorded job, read as running or with its docs pull request open, gets the change. */
const atWork = (is: Case) => is.reachesRecord && is.record?.state === 'at-work'

/** A property of every generated run, its case and its plan. */
const always = (holds: (run: Run & { is: Case; plan: Plan }) => boolean) =>
  fc.property(anyDecided, holds)

describe('a job known to be at work gets the change, never a second job', () => {
  it('recorded job at work ⇒ that job is followed up (attached when told this very commit)', () => {
    fc.assert(
      always(({ is, plan }) => {
        if (!atWork(is) || !is.record) return true
        const mend = is.record.toldHere && is.kind === 'change'
        return plan.act === (mend ? 'attach' : 'follow-up') && plan.jobId === is.record.jobId
      }),
      RUNS
    )
  })

  it('a new job ⇒ no job known to be at work', () => {
    fc.assert(
      always(({ is, plan }) => implies(plan.act === 'create', !atWork(is))),
      RUNS
    )
  })

  it('a follow-up or an attach to a recorded job ⇒ that job at work (or a dry run, which reads nothing)', () => {
    fc.assert(
      always(({ settings, is, plan }) => {
        if ((plan.act !== 'follow-up' && plan.act !== 'attach') || settings.jobId) return true
        const state = is.record?.state
        return (
          is.reachesRecord &&
          plan.jobId === is.record?.jobId &&
          (state === 'at-work' || (state === 'dry' && plan.act === 'follow-up'))
        )
      }),
      RUNS
    )
  })

  it('attach ⇒ the job was told this very commit on a change (or job-id without a prompt)', () => {
    fc.assert(
      always(({ settings, facts, is, plan }) => {
        if (plan.act !== 'attach') return true
        if (settings.jobId) {
          const prompt = facts.prepared ? facts.prepared.prompt : settings.prompt
          return plan.jobId === settings.jobId && is.kind === 'change' && prompt === ''
        }
        return is.kind === 'change' && is.record?.toldHere === true
      }),
      RUNS
    )
  })
})

describe('a job that ended, or could not be read, gets no more: a new job does the work', () => {
  const ended = ['failed', 'merged', 'closed', 'no-link', 'unreadable', 'docs-not-asked'] as const
  it('recorded job ended or unreadable ⇒ a new job, unless this very commit was documented', () => {
    fc.assert(
      always(({ is, plan }) => {
        const record = is.record
        if (!is.reachesRecord || !record || !(ended as readonly string[]).includes(record.state)) {
          return true
        }
        // What the job was told already is not sent again: the run starts nothing.
        const toldAlready =
          is.kind === 'change' &&
          (record.from === 'branch'
            ? record.toldHere && record.state !== 'failed' && record.state !== 'closed'
            : record.state === 'merged' && record.toldPullHead)
        return toldAlready ? plan.act === 'skip' : plan.act === 'create' && plan.jobId === ''
      }),
      RUNS
    )
  })

  it('a new job ⇒ no record, another project’s, or its job ended or unreadable', () => {
    fc.assert(
      always(({ is, plan }) => {
        if (plan.act !== 'create') return true
        const state = is.record?.state
        return (
          is.reachesRecord && (state === undefined || (ended as readonly string[]).includes(state))
        )
      }),
      RUNS
    )
  })
})

describe('the check says success only on what is known: nothing to document', () => {
  it('the agent’s own work, paths that match nothing, or docs merged for the commit told ⇒ green skip', () => {
    fc.assert(
      always(({ settings, is, plan }) => {
        if (is.kind === 'closed') return true
        const before = is.kind === 'change' || is.comment === 'writer'
        if (before && is.own) return greenSkip(plan)
        if (is.kind === 'change' && !is.cannotTell && is.pathsSkip) return greenSkip(plan)
        const record = is.record
        const mergedTold =
          is.kind === 'change' &&
          is.reachesRecord &&
          record?.state === 'merged' &&
          (record.from === 'pull' ? record.toldPullHead : record.toldHere)
        return implies(mergedTold && !settings.jobId, greenSkip(plan))
      }),
      RUNS
    )
  })

  it('green skip ⇒ the agent’s own work, paths that match nothing, or docs merged for the commit told', () => {
    fc.assert(
      always(({ is, plan }) => {
        if (!greenSkip(plan)) return true
        const record = is.record
        return (
          is.own ||
          (is.kind === 'change' && is.pathsSkip && !is.cannotTell) ||
          (is.kind === 'change' &&
            is.reachesRecord &&
            record?.state === 'merged' &&
            (record.from === 'pull' ? record.toldPullHead : record.toldHere))
        )
      }),
      RUNS
    )
  })

  it('a new commit after the docs pull request merged ⇒ never a green skip', () => {
    fc.assert(
      always(({ is, plan }) => {
        const record = is.record
        if (!is.reachesRecord || record?.state !== 'merged') return true
        const newCommit = record.from === 'pull' ? !record.toldPullHead : !record.toldHere
        return implies(newCommit, !greenSkip(plan) && plan.act === 'create')
      }),
      RUNS
    )
  })
})

describe('what cannot be read starts nothing, and the check says so', () => {
  it('whose change, or which job, could not be told ⇒ nothing is sent, the check is an error', () => {
    fc.assert(
      always(({ settings, is, plan }) => {
        if (is.kind === 'closed' || is.own || (is.kind === 'command' && is.comment !== 'writer')) {
          return true
        }
        if (is.cannotTell) return errorSkip(plan)
        if (is.pathsSkip || settings.jobId) return true
        const record = is.record
        const docsFailed =
          record?.state === 'docs-failed' && !(record.from === 'branch' && record.toldHere)
        return implies(is.recordFailed || docsFailed, errorSkip(plan))
      }),
      RUNS
    )
  })

  it('an error on the check ⇒ the commit’s pull requests, the record or the job’s docs pull request did not answer', () => {
    fc.assert(
      always(({ is, plan }) =>
        implies(
          errorSkip(plan),
          is.cannotTell ||
            is.recordFailed ||
            is.record?.state === 'docs-failed' ||
            is.record?.state === 'mismatch'
        )
      ),
      RUNS
    )
  })
})

describe('a /docs command: only a writer’s is carried out, whatever paths say', () => {
  it('no command, a refused or a stopped one ⇒ nothing is written; a reaction only on a refused or stopped one', () => {
    fc.assert(
      always(({ is, plan }) => {
        if (is.kind !== 'command' || is.comment === 'writer') return true
        return (
          plan.act === 'skip' &&
          plan.check === 'leave' &&
          writesNothing(plan) &&
          inertOn(plan) === is.answerOn
        )
      }),
      RUNS
    )
  })

  it('a writer’s command that nothing stops ⇒ a job gets it, acknowledged on the comment', () => {
    fc.assert(
      always(({ settings, facts, is, plan }) => {
        if (is.comment !== 'writer' || is.own || is.cannotTell) return true
        const commentId = facts.kind?.kind === 'command' ? facts.kind.commentId : undefined
        const blocked =
          is.recordFailed || is.record?.state === 'docs-failed' || is.record?.state === 'mismatch'
        if (!settings.jobId && blocked) return errorSkip(plan)
        return (
          (plan.act === 'follow-up' || (plan.act === 'create' && plan.jobId === '')) &&
          acknowledgedOn(plan) === commentId &&
          inertOn(plan) === undefined
        )
      }),
      RUNS
    )
  })

  it('a job started or messaged on a comment ⇒ a writer’s command, as the parser reads it', () => {
    fc.assert(
      always(({ is, plan }) =>
        implies(is.kind === 'command' && starts(plan), is.comment === 'writer')
      ),
      RUNS
    )
  })

  it('nothing written on GitHub ⇒ a comment run that is no command taken', () => {
    fc.assert(
      always(({ is, plan }) =>
        implies(writesNothing(plan), is.kind === 'command' && is.comment !== 'writer')
      ),
      RUNS
    )
  })

  it('a reaction or an acknowledgement ⇒ a comment run, refused, stopped or taken', () => {
    fc.assert(
      always(({ is, plan }) => {
        const answer = inertOn(plan)
        const acknowledge = acknowledgedOn(plan)
        return (
          implies(answer !== undefined, is.comment === 'refused' || is.comment === 'stopped') &&
          implies(acknowledge !== undefined, is.comment === 'writer')
        )
      }),
      RUNS
    )
  })
})

describe('a closed code pull request: the job it records is followed, none is started', () => {
  it('closed ⇒ the job job-id or this project’s record names is followed (the agent’s own: skipped)', () => {
    fc.assert(
      always(({ settings, facts, is, plan }) => {
        if (is.kind !== 'closed') return true
        if (is.own) return greenSkip(plan)
        // A record GitHub did not answer for names no docs pull request to follow: nothing is.
        if (is.recordFailed && !settings.jobId) {
          return (
            plan.act === 'skip' &&
            plan.why.code === 'record-unknown' &&
            effectsOf(plan).every((e) => e.kind === 'comment')
          )
        }
        const recorded = facts.pull?.recorded.known ? facts.pull.recorded.value : undefined
        const named =
          settings.jobId || (recorded?.projectId === PROJECT ? recorded.jobId : undefined)
        return plan.act === 'close' && plan.jobId === named
      }),
      RUNS
    )
  })

  it('close ⇒ a code pull request was closed', () => {
    fc.assert(
      always(({ is, plan }) => implies(plan.act === 'close', is.kind === 'closed')),
      RUNS
    )
  })

  it('the docs pull request follows the code one’s end ⇔ close, and a closed run writes no check', () => {
    fc.assert(
      always(({ plan }) => {
        const effects = effectsOf(plan)
        const follows = effects.some((e) => e.kind === 'docs-pull' && e.closed !== undefined)
        const checks = effects.some((e) => e.kind === 'check')
        return follows === (plan.act === 'close') && implies(plan.act === 'close', !checks)
      }),
      RUNS
    )
  })
})

describe('job-id: the job given is the one continued', () => {
  it('job-id ⇒ that job is sent the change (attached without a prompt)', () => {
    fc.assert(
      always(({ settings, facts, is, plan }) => {
        if (!settings.jobId || is.kind === 'closed' || is.own || is.cannotTell) return true
        if (is.kind === 'command') {
          return implies(
            is.comment === 'writer',
            plan.act === 'follow-up' && plan.jobId === settings.jobId
          )
        }
        if (is.pathsSkip) return true
        const prompt = facts.prepared ? facts.prepared.prompt : settings.prompt
        return plan.act === (prompt ? 'follow-up' : 'attach') && plan.jobId === settings.jobId
      }),
      RUNS
    )
  })

  it('the job given is continued ⇒ job-id names it', () => {
    fc.assert(
      always(({ settings, plan }) =>
        implies(starts(plan) && plan.jobId === 'job_given', settings.jobId === 'job_given')
      ),
      RUNS
    )
  })
})

describe('on a branch, a job is told everything since the last documented commit', () => {
  it('a new job on a branch ⇒ told from the push’s parent, the record’s base, or what it was told', () => {
    fc.assert(
      always(({ event, is, plan }) => {
        if (plan.act !== 'create' || is.kind !== 'change' || !is.reachesRecord) return true
        const record = is.record
        if (is.freshBranch) {
          return plan.tell?.since === parentOf(event)
        }
        if (record?.from !== 'branch') return true
        const fromBase = record.state === 'failed' || record.state === 'closed'
        return plan.tell?.since === (fromBase ? record.since : record.told)
      }),
      RUNS
    )
  })

  it('a follow-up on a branch ⇒ told from what the job was told, and a new job falls back from there', () => {
    fc.assert(
      always(({ is, plan }) => {
        if (plan.act !== 'follow-up' || is.record?.from !== 'branch' || !is.reachesRecord)
          return true
        return (
          plan.tell?.since === is.record.told &&
          plan.fallback?.act === 'create' &&
          plan.fallback.keep?.base === is.record.told &&
          plan.keep?.base === is.record.since
        )
      }),
      RUNS
    )
  })
})

/** The record a gathering run leaves on its branch, worked out from the inputs. */
function keptOn(run: Run & { is: Case; plan: Plan }) {
  const { event, facts, is, plan } = run
  const branch = facts.branch
  if (!branch || plan.act === 'close' || (starts(plan) && run.settings.jobId)) return undefined
  const name = branch.name
  const before = parentOf(event)
  const recorded = facts.pull?.recorded.known ? facts.pull.recorded.value : undefined
  const value = branch.record.known ? branch.record.value : undefined
  const record = value?.branch === name ? value : undefined
  if (plan.act === 'skip') {
    if (is.cannotTell && !is.own) return undefined
    if (recorded) return { name, base: before, jobId: recorded.jobId }
    return record && { name, base: record.since, jobId: record.jobId }
  }
  if (recorded) return { name, base: before, jobId: recorded.jobId }
  if (plan.act === 'create') return { name, base: plan.tell?.since }
  return { name, base: record?.since }
}

describe('a run on a branch leaves the branch’s record where the next run finds it', () => {
  it('skip ⇒ the record carried forward; a new job ⇒ recorded from where it is told; a follow-up ⇒ the record’s base', () => {
    fc.assert(
      always((run) => {
        const expected = keptOn(run)
        const kept = 'keep' in run.plan ? run.plan.keep : undefined
        if (expected === undefined) return kept === undefined
        return (
          kept?.name === expected.name &&
          kept.base === expected.base &&
          kept.jobId === ('jobId' in expected ? expected.jobId : undefined)
        )
      }),
      RUNS
    )
  })

  it('a job started or messaged on a branch is told its change from where the plan says; elsewhere as the event shows it', () => {
    fc.assert(
      always(({ settings, facts, plan }) => {
        if (!starts(plan)) return true
        const gathers = facts.branch !== undefined && !settings.jobId
        return gathers ? plan.tell !== undefined : plan.tell === undefined
      }),
      RUNS
    )
  })
})
