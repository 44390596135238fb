// The decision as a table of named cases: each row a run as GitHub and Mintlify showed it, and
// what the run does. The words of each plan come from the presentation.
import { describe, expect, it } from '@jest/globals'
import { decide, kindOf, KINDS } from '../src/kinds/registry.js'
import type { Plan, Why } from '../src/run/decide/plan.js'
import { planWords } from '../src/report/plan.js'
import type { Facts as AnyFacts } from '../src/run/read/facts.js'
import type { CommandFacts } from '../src/kinds/command/facts.js'
import { known } from '../src/run/read/known.js'
import type { Event } from '../src/given/event.js'
import {
  A,
  AGENT,
  B,
  branch,
  commentEvent,
  event,
  facts,
  failed,
  HEAD,
  HUMAN,
  job,
  notAsked,
  pull,
  pullEvent,
  push,
  record,
  schedule,
  SETTINGS
} from './decide-inputs.js'

/** Facts as a comment run reads them: its command is its kind's own. */
type Facts = AnyFacts<CommandFacts>

const running = known('running' as const)
const completed = known('completed' as const)
const open = known('open' as const)
const recordedOnPull = (sha?: string, projectId = 'proj_1') =>
  pull({ recorded: known({ projectId, jobId: 'job_rec', ...(sha ? { sha } : {}) }) })
/** A run that gathers on main: its change is read once the plan says from where. */
const onMain = (more: Partial<Facts>): Facts => facts({ prepared: undefined, ...more })

interface Case {
  readonly name: string
  readonly event: Event
  readonly facts: Facts
  readonly settings?: Partial<typeof SETTINGS>
  /** Fields of the plan; `why` is its reason's code, `since` where the change is told from. */
  readonly expected: Readonly<Record<string, unknown>>
}

const CASES: Case[] = [
  {
    name: 'a push of a human commit, in no pull request: a new job',
    event: push(),
    facts: facts(),
    expected: { act: 'create' }
  },
  {
    name: "comment: off, the agent's merge commit: no job (its pull request is read whatever comment says)",
    event: push([HUMAN]),
    facts: facts({ pulls: known([{ number: 7, author: AGENT }]) }),
    expected: { act: 'skip', why: 'own', check: 'success' }
  },
  {
    name: "the agent's merge commit that also belongs to main → release: no job",
    event: push([HUMAN]),
    facts: facts({
      pulls: known([
        { number: 9, author: HUMAN },
        { number: 7, author: AGENT }
      ])
    }),
    expected: { act: 'skip', why: 'own' }
  },
  {
    name: 'a 502 on the pull requests of the commit: no job, and the check is an error',
    event: push([HUMAN]),
    facts: facts({ pulls: failed }),
    expected: { act: 'skip', why: 'own-unknown', check: 'error' }
  },
  {
    name: "a nightly run whose new commit is the merge of the agent's docs pull request: no job, the record kept",
    event: schedule(),
    facts: onMain({
      pulls: known([{ number: 7, author: AGENT }]),
      branch: branch(record(A))
    }),
    expected: {
      act: 'skip',
      why: 'own',
      keep: { name: 'main', base: A.slice(0, 12), jobId: 'job_rec' }
    }
  },
  {
    name: 'a push of only the agent’s commits: no job',
    event: push([AGENT, AGENT]),
    facts: facts(),
    expected: { act: 'skip', why: 'own' }
  },
  {
    name: 'the agent’s own pull request: no job',
    event: pullEvent(AGENT),
    facts: facts(),
    expected: { act: 'skip', why: 'own' }
  },
  {
    name: 'a follow-up is never sent blind: a docs pull request GitHub did not answer for sends nothing',
    event: pullEvent(),
    facts: facts({
      pulls: known([{ number: 2, author: HUMAN }]),
      pull: recordedOnPull(),
      job: job('pull', completed, failed)
    }),
    expected: { act: 'skip', why: 'record-unknown' }
  },
  {
    name: 'a docs pull request the token may never read (refused, another repository) starts a new job',
    event: pullEvent(),
    facts: facts({
      pulls: known([{ number: 2, author: HUMAN }]),
      pull: recordedOnPull(),
      job: job('pull', completed, notAsked)
    }),
    expected: { act: 'create', why: 'docs-unknown' }
  },
  {
    name: 'a status comment GitHub did not answer for: nothing is sent',
    event: pullEvent(),
    facts: facts({
      pulls: known([{ number: 2, author: HUMAN }]),
      pull: pull({ recorded: failed })
    }),
    expected: { act: 'skip', why: 'record-unknown' }
  },
  {
    name: 'a status comment the token may not read: a new job, as on every run',
    event: pullEvent(),
    facts: facts({
      pulls: known([{ number: 2, author: HUMAN }]),
      pull: pull({ recorded: notAsked })
    }),
    expected: { act: 'create' }
  },
  {
    name: 'docs checks GitHub did not answer for on a branch: nothing is sent',
    event: push(),
    facts: onMain({ branch: branch(failed) }),
    expected: { act: 'skip', why: 'record-unknown' }
  },
  {
    name: 'an unreadable recorded job starts a new job',
    event: pullEvent(),
    facts: facts({ pull: recordedOnPull(), job: job('pull', failed, failed) }),
    expected: { act: 'create', why: 'job-unreadable' }
  },
  {
    name: 'a recorded job with its docs pull request open gets a follow-up, which falls back to a new job',
    event: pullEvent(),
    facts: facts({ pull: recordedOnPull(A), job: job('pull', completed, open) }),
    expected: { act: 'follow-up', jobId: 'job_rec', reusingFrom: 2, fallback: { act: 'create' } }
  },
  {
    name: 'another project’s record is not continued',
    event: pullEvent(),
    facts: facts({
      pull: recordedOnPull(A, 'proj_other'),
      job: job('pull', running, known('none'))
    }),
    expected: { act: 'create' }
  },
  {
    name: 'docs merged after the job was told every commit: nothing to document',
    event: pullEvent(),
    facts: facts({ pull: recordedOnPull(HEAD), job: job('pull', completed, known('merged')) }),
    expected: { act: 'skip', why: 'docs-merged-told', check: 'success' }
  },
  {
    name: 'a re-run on the commit the pull request’s job was told: attach, send nothing',
    event: pullEvent(),
    facts: facts({ pull: recordedOnPull(HEAD), job: job('pull', running, known('none')) }),
    expected: { act: 'attach', jobId: 'job_rec', why: 'mend' }
  },
  {
    name: 'a push on a branch with no record: a new job, told since the commit before the push',
    event: push(),
    facts: onMain({ branch: branch(known(undefined)) }),
    expected: {
      act: 'create',
      since: B.replace(/b/g, 'c'),
      keep: { name: 'main', base: 'c'.repeat(40) }
    }
  },
  {
    name: 'a push joins the branch’s job whose docs pull request is open, and falls back to a new job',
    event: push(),
    facts: onMain({ branch: branch(record(B)), job: job('branch', completed, open) }),
    expected: {
      act: 'follow-up',
      jobId: 'job_rec',
      since: B,
      why: 'join',
      fallback: { act: 'create', keep: { name: 'main', base: B } }
    }
  },
  {
    name: 'a re-run of a push that timed out: attach to the job it told, and mend the check from its end',
    event: push(),
    facts: onMain({ branch: branch(record(HEAD)), job: job('branch', completed, open) }),
    expected: {
      act: 'attach',
      jobId: 'job_rec',
      why: 'mend',
      keep: { name: 'main', base: A.slice(0, 12) }
    }
  },
  {
    name: 'told this commit, the job’s state unknown: nothing new, the check left as it is',
    event: push(),
    facts: onMain({ branch: branch(record(HEAD)), job: job('branch', completed, failed) }),
    expected: { act: 'skip', why: 'nothing-new', check: 'leave' }
  },
  {
    name: 'a failed branch job: a new job told from the last documented commit',
    event: push(),
    facts: onMain({
      branch: branch(record(B)),
      job: job('branch', known('failed'), known('none'))
    }),
    expected: { act: 'create', why: 'job-ended', since: A.slice(0, 12) }
  },
  {
    name: 'a docs pull request GitHub did not answer for on a branch: nothing is sent, the record is kept',
    event: push(),
    facts: onMain({ branch: branch(record(B)), job: job('branch', completed, failed) }),
    expected: { act: 'skip', why: 'record-unknown' }
  },
  {
    name: 'a docs pull request the token may never read on a branch: a new job, told only what is new, with a warning',
    event: push(),
    facts: onMain({ branch: branch(record(B)), job: job('branch', completed, notAsked) }),
    expected: { act: 'create', why: 'docs-unknown', since: B }
  },
  {
    name: 'another branch’s record is not joined',
    event: push(),
    facts: onMain({
      branch: branch(record(B, { branch: 'feature' })),
      job: job('branch', completed, open)
    }),
    expected: { act: 'create' }
  },
  {
    name: 'a run skipped by paths carries the branch’s record forward',
    event: push(),
    facts: {
      ...onMain({ branch: branch(record(B)), job: job('branch', completed, open) }),
      prepared: {
        prompt: 'p',
        skip: 'None of the 2 changed files matches paths (docs/**), so no job was started.'
      }
    },
    expected: {
      act: 'skip',
      why: 'change',
      check: 'success',
      keep: { name: 'main', base: A.slice(0, 12), jobId: 'job_rec' }
    }
  },
  {
    name: 'a dry run on a branch shows the follow-up the recorded job would get',
    event: push(),
    facts: onMain({ branch: branch(record(B)), job: job('branch', notAsked, notAsked) }),
    expected: { act: 'follow-up', jobId: 'job_rec' }
  },
  {
    name: 'job-id with a prompt: a follow-up to that job, nothing recorded read',
    event: push(),
    settings: { jobId: 'job_given' },
    facts: facts(),
    expected: { act: 'follow-up', jobId: 'job_given' }
  },
  {
    name: 'job-id without a prompt: attach',
    event: push(),
    settings: { jobId: 'job_given', prompt: '' },
    facts: facts({ prepared: { prompt: '' } }),
    expected: { act: 'attach', jobId: 'job_given' }
  },
  {
    name: 'a merged code pull request: the recorded job is followed, nothing started',
    event: pullEvent(HUMAN, 'closed', true),
    facts: facts({ pull: recordedOnPull(A), prepared: undefined }),
    expected: { act: 'close', jobId: 'job_rec', why: 'merged' }
  },
  {
    name: 'the agent’s own pull request closed: skipped',
    event: pullEvent(AGENT, 'closed', true),
    facts: facts({ prepared: undefined }),
    expected: { act: 'skip', why: 'own' }
  },
  {
    name: 'outside a workflow run: a new job',
    event: event('', {}),
    facts: facts(),
    expected: { act: 'create' }
  }
]

/** What a case looks at in a plan: its fields, its reason's code and where its change starts. */
function observed(plan: Plan) {
  return {
    ...plan,
    why: plan.why?.code === 'kind' ? plan.why.reason : plan.why?.code,
    since: plan.act !== 'skip' && plan.act !== 'close' ? plan.tell?.since : undefined,
    words: planWords(plan).reason !== undefined
  }
}

describe('the decision, case by case', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const plan = decide({ ...SETTINGS, ...c.settings }, c.event, c.facts)
    // A skip always says why, for the log and the summary.
    const words = plan.act === 'skip' ? { words: true } : {}
    expect(observed(plan)).toMatchObject({ ...c.expected, ...words })
  })

  it('the fallback of a branch’s follow-up records the new job from where it was told', () => {
    const plan = decide(
      SETTINGS,
      push(),
      onMain({ branch: branch(record(B)), job: job('branch', running, known('none')) })
    )
    expect(plan).toMatchObject({
      act: 'follow-up',
      tell: { since: B },
      fallback: { act: 'create' }
    })
  })
})

describe('a review', () => {
  it('does nothing and writes nothing, whatever was read, and says a review never commands', () => {
    const writer = facts({
      kind: {
        kind: 'command',
        request: '',
        login: HUMAN,
        commentId: 11,
        permission: known({ role: 'admin', permission: 'admin' })
      }
    })
    for (const f of [facts(), writer]) {
      const plan = decide(SETTINGS, event('pull_request_review'), f)
      expect(plan).toEqual({
        act: 'skip',
        why: expect.objectContaining({ code: 'kind', reason: 'not-a-command' }) as unknown as Why,
        check: 'leave',
        effects: []
      })
      expect(planWords(plan).reason).toContain('A review never commands the docs job')
    }
  })
})

describe('the kinds of run', () => {
  it.each([
    ['a closed pull request', pullEvent(HUMAN, 'closed', false), 'closed pull request'],
    ['a merged pull request', pullEvent(HUMAN, 'closed', true), 'closed pull request'],
    ['a pull request’s new commits', pullEvent(), 'change'],
    ['a push', push(), 'change'],
    ['a schedule', schedule(), 'change'],
    ['outside a workflow run', undefined, 'change'],
    ['a comment', commentEvent('/docs'), 'command'],
    ['a review', event('pull_request_review'), 'review'],
    ['a comment on the diff', event('pull_request_review_comment'), 'review']
  ])('%s is a %s', (_, ev, kind) => {
    expect(kindOf(ev).name).toBe(kind)
  })

  it('the first kind that applies decides, and a change takes the rest', () => {
    expect(KINDS.at(-1)?.detects(undefined)).toBe(true)
    expect(() => kindOf(push(), [])).toThrow('No kind of run applies')
  })
})

describe('the plan’s words', () => {
  it('the branch’s unreadable docs pull request warns once, naming why and what gathers', () => {
    const plan = decide(
      SETTINGS,
      push(),
      onMain({ branch: branch(record(B)), job: job('branch', completed, notAsked) })
    )
    expect(planWords(plan).warning).toContain(
      'gather into one docs pull request only while it can be read'
    )
  })

  it('a record that could not be read: the check says nothing was sent and a re-run sends it', () => {
    const plan = decide(
      SETTINGS,
      push(),
      onMain({ branch: branch(record(B)), job: job('branch', completed, failed) })
    )
    expect(plan).toMatchObject({ act: 'skip', check: 'error', keep: { jobId: 'job_rec' } })
    const words = planWords(plan)
    expect(words.check).toBe('Nothing was sent: a docs record could not be read; a re-run sends it')
    expect(words.warning).toContain('GitHub answered 502.')
    expect(words.reason).toContain('re-run the workflow job once GitHub answers')
  })

  it('the unknown authorship says why and what to do', () => {
    const plan = decide(SETTINGS, push(), facts({ pulls: failed }))
    const words = planWords(plan)
    expect(words.reason).toContain('re-run the workflow')
    expect(words.check?.length).toBeLessThanOrEqual(100)
  })
})

describe('a run outside a workflow event, or a comment run with nothing read', () => {
  it('with no event, the change is documented by a new job, or by the job given', () => {
    expect(decide(SETTINGS, undefined, facts())).toMatchObject({ act: 'create', jobId: '' })
    const given = { ...SETTINGS, jobId: 'job_given' }
    expect(decide(given, undefined, facts())).toMatchObject({
      act: 'follow-up',
      jobId: 'job_given'
    })
    const skip = facts({
      prepared: { prompt: '', skip: 'None of the changed files matches paths.' }
    })
    expect(decide(SETTINGS, undefined, skip)).toMatchObject({ act: 'skip', check: 'success' })
  })

  it('a comment whose command was not read does nothing, and says so', () => {
    const plan = decide(SETTINGS, commentEvent('/docs'), facts())
    expect(plan).toMatchObject({ act: 'skip', check: 'leave', effects: [] })
    expect(planWords(plan).reason).toContain('not started by a comment that can be read')
  })
})

describe('the agent’s own docs pull request, in words', () => {
  const backlinked = pull({ docsPull: true })
  it('on the pull request itself, the check names the pull request', () => {
    const plan = decide(
      SETTINGS,
      pullEvent(),
      facts({ pulls: known([{ number: 2 }]), pull: backlinked })
    )
    expect(planWords(plan).reason).toMatch(/^Pull request #2 was followed by this action/)
  })

  it('on a push of its commit, the check names the pushed commit', () => {
    const plan = decide(
      SETTINGS,
      push(),
      facts({ pulls: known([{ number: 2 }]), pull: backlinked })
    )
    expect(planWords(plan).reason).toMatch(/^The pushed commit comes from pull request #2/)
  })
})

describe('a /docs command whose recorded job ended, in words', () => {
  it('goes to a new job, saying why the recorded one could not take it', () => {
    const recorded = pull({ recorded: known({ projectId: 'proj_1', jobId: 'job_rec' }) })
    const writer = known({ role: 'write', permission: 'write' })
    const plan = decide(
      SETTINGS,
      commentEvent('/docs'),
      facts({
        kind: { kind: 'command', request: '', login: HUMAN, commentId: 11, permission: writer },
        pulls: known([{ number: 2 }]),
        pull: recorded,
        job: job('pull', known('failed'), known('none'))
      })
    )
    expect(plan).toMatchObject({ act: 'create', jobId: '' })
    expect(planWords(plan).reason).toContain('failed, so a new job was started')
  })
})
