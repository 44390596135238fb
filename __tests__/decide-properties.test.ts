// The decision's promises, as properties over generated events × what is known. Each expectation
// is computed here from the inputs, not by the decision's own helpers.
import { describe, it } from '@jest/globals'
import fc from 'fast-check'
import { decide } from '../src/kinds/registry.js'
import { effectsOf, type Plan, type Start } from '../src/run/decide/plan.js'
import type { Facts } from '../src/run/read/facts.js'
import { reportOf } from '../src/report/report.js'
import { agentsPull } from '../__fixtures__/docs-pull.js'
import type { Event } from '../src/given/event.js'
import { AGENT, anyRun, HEAD, PROJECT, SETTINGS } from './decide-inputs.js'

const RUNS = { numRuns: 5000 }

const starts = (plan: Plan): plan is Start =>
  plan.act === 'create' || plan.act === 'follow-up' || plan.act === 'attach'
const closing = (event: Event) => event.name === 'pull_request' && event.action === 'closed'

/** The change is the agent's own, by anything the event or the read stage could tell. */
function agentsOwn(event: Event, facts: Facts): boolean {
  if (event.pullRequest?.author === AGENT) return true
  if (event.name === 'push' && event.commits.length > 0) {
    if (event.commits.every((commit) => commit.login === AGENT)) return true
  }
  if (closing(event)) return false
  if (facts.pulls.known && facts.pulls.value.some((pull) => pull.author === AGENT)) return true
  return facts.pull?.docsPull === true
}

/** The pull request's comment records a job, which goes before the branch's. */
const pullRecords = (facts: Facts) =>
  facts.pull?.recorded.known === true && facts.pull.recorded.value !== undefined

/** The record the plan's job comes from, when it is not `job-id`: the pull request's or the branch's. */
function recordOf(facts: Facts) {
  const job = facts.job
  if (!job) return undefined
  if (job.from === 'pull') {
    const recorded = facts.pull?.recorded
    const value = recorded?.known ? recorded.value : undefined
    return value && { jobId: value.jobId, told: value.sha, ok: value.projectId === PROJECT }
  }
  const record = facts.branch?.record
  const value = record?.known ? record.value : undefined
  return (
    value && {
      jobId: value.jobId,
      told: value.told,
      ok: value.branch === facts.branch?.name && !pullRecords(facts)
    }
  )
}
const dryRun = (facts: Facts) =>
  facts.job?.phase.known === false && facts.job.phase.cause === 'not-asked'

/** The property that `holds` for every generated run. */
const always = (
  holds: (run: { settings: typeof SETTINGS; event: Event; facts: Facts }) => boolean
) => fc.property(anyRun, holds)

const implies = (a: boolean, b: boolean) => !a || b

describe("the agent's own work never starts or messages a job", () => {
  it('authorship by agent-accounts, its pull requests and its merge commits: skipped', () => {
    fc.assert(
      always(({ settings, event, facts }) =>
        implies(agentsOwn(event, facts), decide(settings, event, facts).act === 'skip')
      ),
      RUNS
    )
  })

  it('when GitHub cannot say whose commit it is, nothing is started and the check is no success', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const cannotTell = !facts.pulls.known && facts.pulls.cause === 'failed' && !closing(event)
        const plan = decide(settings, event, facts)
        return implies(
          cannotTell,
          plan.act === 'skip' && (agentsOwn(event, facts) || plan.check === 'error')
        )
      }),
      RUNS
    )
  })
})

describe('a job is followed up only while it is known to be at work', () => {
  it('a follow-up goes to a job known running, or whose docs pull request is known open', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const plan = decide(settings, event, facts)
        if (plan.act !== 'follow-up' && plan.act !== 'attach') return true
        if (settings.jobId || dryRun(facts)) return true
        const job = facts.job
        if (job?.jobId !== plan.jobId || !job.phase.known || !job.docs.known) return false
        const docs = job.docs.value
        const phase = job.phase.value
        return plan.act === 'follow-up'
          ? docs === 'open' || (docs === 'none' && phase === 'running')
          : (docs === 'open' || docs === 'none') && (phase === 'running' || phase === 'completed')
      }),
      RUNS
    )
  })

  it('unknown or ended: a new job, told from the last documented commit', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const job = facts.job
        if (!job || settings.jobId || dryRun(facts) || closing(event)) return true
        const { phase, docs } = job
        const failed = phase.known && (phase.value === 'failed' || phase.value === 'archived')
        const closed = docs.known && docs.value === 'closed'
        const ended =
          !phase.known || !docs.known || failed || closed || (docs.known && docs.value === 'merged')
        if (!ended) return true
        const plan = decide(settings, event, facts)
        if (plan.act !== 'create') return plan.act === 'skip'
        const record = facts.branch?.record
        if (job.from !== 'branch' || !record?.known || !record.value) return true
        if (record.value.branch !== facts.branch?.name) return true
        const fromBase = failed || (phase.known && closed)
        return plan.tell?.since === (fromBase ? record.value.since : record.value.told)
      }),
      RUNS
    )
  })
})

describe('branches and projects never share a job', () => {
  it("a recorded job is continued only from this project's or this branch's own record", () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const plan = decide(settings, event, facts)
        if (plan.act !== 'follow-up' && plan.act !== 'attach') return true
        if (settings.jobId) return plan.jobId === settings.jobId
        const record = recordOf(facts)
        return record?.ok === true && plan.jobId === record.jobId
      }),
      RUNS
    )
  })

  it('a follow-up to a recorded job falls back to a new job, on every path', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const plan = decide(settings, event, facts)
        return implies(
          plan.act === 'follow-up' && !settings.jobId,
          plan.act === 'follow-up' && plan.fallback?.act === 'create'
        )
      }),
      RUNS
    )
  })
})

describe('a run whose commit a job was already told mends the check from its end', () => {
  it('that job is never sent the same commit again, and is followed when it is at work', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        // A dry run sends nothing, to any job; a /docs command is a new request, sent whatever
        // commit the job was told.
        if (settings.jobId || dryRun(facts) || event.name === 'issue_comment') return true
        const plan = decide(settings, event, facts)
        const record = recordOf(facts)
        const toldHere = record?.told !== undefined && HEAD.startsWith(record.told)
        if (plan.act === 'follow-up' && plan.jobId === record?.jobId && toldHere) return false
        const job = facts.job
        const atWork =
          job?.phase.known &&
          job.docs.known &&
          ['running', 'completed'].includes(job.phase.value) &&
          (job.docs.value === 'open' || job.docs.value === 'none')
        return implies(
          toldHere && atWork === true && record?.ok === true && starts(plan),
          plan.act === 'attach' && plan.jobId === record?.jobId
        )
      }),
      RUNS
    )
  })
})

describe('a run that starts nothing carries the branch’s record forward', () => {
  it('a skip on a branch with a known record keeps that record on this commit', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const plan = decide(settings, event, facts)
        const record = facts.branch?.record
        if (plan.act !== 'skip' || !record?.known || !record.value) return true
        if (record.value.branch !== facts.branch?.name || pullRecords(facts)) return true
        if (plan.why.code === 'own-unknown') return true
        // Left as it is only where the check on this very commit holds the record.
        if (plan.check === 'leave') return HEAD.startsWith(record.value.told)
        return plan.keep?.jobId === record.value.jobId && plan.keep.name === facts.branch?.name
      }),
      RUNS
    )
  })
})

describe('the check says success only on what is known', () => {
  it('a skip passes the check only when there is known to be nothing to document', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const plan = decide(settings, event, facts)
        if (plan.act !== 'skip' || plan.check !== 'success') return true
        return ['own', 'change', 'docs-merged-told'].includes(plan.why.code)
      }),
      RUNS
    )
  })

  it('a finished job passes the check only when its docs pull request is known open (or merged), was opened though it could not be read, or it changed nothing', () => {
    const docs = fc.constantFrom('open', 'merged', 'closed', 'unknown' as const)
    const modes = fc.constantFrom('create', 'follow-up', 'attach' as const)
    fc.assert(
      fc.property(docs, fc.boolean(), modes, fc.boolean(), (state, linked, mode, waited) => {
        const job = {
          id: 'job_1',
          status: 'completed',
          prLink: linked ? 'https://github.com/acme/docs/pull/1' : null
        }
        const { check } = reportOf({
          job,
          mode,
          outcome: waited ? { kind: 'finished', phase: 'completed' } : { kind: 'started', mode },
          elapsedMs: 1,
          failOnNoPr: false,
          docs: !linked
            ? undefined
            : state === 'unknown'
              ? { state, ref: { owner: 'acme', repo: 'docs', number: 1 }, why: 'x' }
              : agentsPull({ owner: 'acme', repo: 'docs', number: 1 }, state)
        })
        // An unread one the job names (`ref`) is "opened": nobody needs to act on it.
        return implies(
          check.state === 'success' && linked,
          state === 'open' || state === 'merged' || state === 'unknown'
        )
      }),
      RUNS
    )
  })
})

/** A read that was asked and not answered (`not-asked`: the workflow's choice, every run). */
const failedRead = (value: { known: boolean; cause?: string } | undefined) =>
  value?.known === false && value.cause === 'failed'

/**
 * Whether a job is recorded, or whether the recorded job is still at work on its docs pull
 * request, could not be read: the comment or the branch's checks did not answer, or this
 * project's recorded job, read as running or completed, has a docs pull request GitHub did not
 * answer for.
 */
function recordUnknown(facts: Facts): boolean {
  if (failedRead(facts.pull?.recorded)) return true
  if (facts.branch && failedRead(facts.branch.record)) return true
  const record = recordOf(facts)
  const job = facts.job
  if (!job || !record?.ok || record.jobId !== job.jobId || !job.phase.known) return false
  return ['running', 'completed'].includes(job.phase.value) && failedRead(job.docs)
}

describe('an unknown record never yields a second job', () => {
  it('record unknown ⇒ no new job, and the check is no success', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        if (settings.jobId || !recordUnknown(facts)) return true
        const plan = decide(settings, event, facts)
        // Success only on what is known: the agent's own work, or a change with nothing to document.
        const known = plan.act === 'skip' && ['own', 'change'].includes(plan.why.code)
        return plan.act !== 'create' && (plan.act !== 'skip' || plan.check !== 'success' || known)
      }),
      RUNS
    )
  })

  it('a new job ⇒ the comment and the branch’s checks answered, and the recorded job’s docs pull request too unless it ended', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const plan = decide(settings, event, facts)
        if (plan.act !== 'create') return true
        const job = facts.job
        const ended =
          job?.phase.known === true &&
          (job.phase.value === 'failed' || job.phase.value === 'archived')
        return (
          !failedRead(facts.pull?.recorded) &&
          !(facts.branch && failedRead(facts.branch.record)) &&
          // The docs pull request is read only once the job was.
          (!job ||
            !job.phase.known ||
            ended ||
            !failedRead(job.docs) ||
            recordOf(facts)?.ok !== true)
        )
      }),
      RUNS
    )
  })
})

describe('a record the answer contradicts never starts a job', () => {
  it('the answer names another docs pull request than the record ⇒ nothing is started', () => {
    fc.assert(
      always(({ settings, event, facts }) =>
        implies(
          facts.job?.mismatch !== undefined && !settings.jobId,
          decide(settings, event, facts).act === 'skip'
        )
      ),
      RUNS
    )
  })

  it('record-mismatch ⇔ the answer contradicts the record; the check is no success and neither pull request is written to', () => {
    fc.assert(
      always(({ settings, event, facts }) => {
        const plan = decide(settings, event, facts)
        const said = plan.act === 'skip' && plan.why.code === 'record-mismatch'
        if (!said) return true
        return (
          facts.job?.mismatch !== undefined &&
          plan.check === 'error' &&
          effectsOf(plan).every((effect) => effect.kind !== 'docs-pull')
        )
      }),
      RUNS
    )
  })
})
