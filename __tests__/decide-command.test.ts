// A /docs command as one kind of run: its promises as properties over generated comment runs
// (no bot, no edit, no reader ever causes a request to Mintlify or a write on GitHub), and a
// table of named cases.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { decide } from '../src/kinds/registry.js'
import type { Plan, Start } from '../src/run/decide/plan.js'
import { planWords } from '../src/report/plan.js'
import type { Facts as AnyFacts } from '../src/run/read/facts.js'
import type { CommandFacts } from '../src/kinds/command/facts.js'
import { known, unknown, type Knowable } from '../src/run/read/known.js'
import type { Permission } from '../src/clients/github/api.js'
import {
  AGENT,
  anyFacts,
  anySettings,
  commentEvent,
  facts,
  HUMAN,
  job,
  pull,
  PROJECT,
  SETTINGS,
  writesNothing,
  inertOn,
  acknowledgedOn
} from './decide-inputs.js'

/** Facts as a comment run reads them: its command is its kind's own. */
type Facts = AnyFacts<CommandFacts>

const RUNS = { numRuns: 3000 }
const WRITERS = ['admin', 'maintain', 'write']

/** Comment runs only: every body, action and author, and every answer about permission. */
const anyCommentRun = fc
  .tuple(
    anySettings,
    fc.constantFrom('/docs', '/docs Also document --retries', 'LGTM', '/docsify', ' /docs\nplease'),
    fc.constantFrom('created', 'created', 'edited', 'deleted'),
    fc.constantFrom(HUMAN, HUMAN, 'github-actions[bot]', AGENT, 'renovate'),
    fc.constantFrom('User', 'User', 'Bot')
  )
  .chain(([settings, body, action, author, authorType]) => {
    const ev = commentEvent(body, { action, author, authorType })
    return anyFacts(ev).map((f) => ({ settings, event: ev, facts: f }))
  })

const starts = (plan: Plan): plan is Start => plan.act !== 'skip' && plan.act !== 'close'
const mayWrite = (f: Facts) =>
  f.kind?.kind === 'command' &&
  f.kind.permission.known &&
  f.kind.permission.value !== undefined &&
  (WRITERS.includes(f.kind.permission.value.role ?? '') ||
    (!['triage', 'read'].includes(f.kind.permission.value.role ?? '') &&
      f.kind.permission.value.permission === 'write'))

describe('only a writer’s command does anything (properties)', () => {
  it('no bot, no edit or deletion, no lookalike and no reader starts or messages a job', () => {
    fc.assert(
      fc.property(anyCommentRun, ({ settings, event, facts: f }) => {
        const plan = decide(settings, event, f)
        const comment = event.comment
        const command =
          event.action === 'created' &&
          comment?.authorType !== 'Bot' &&
          !(comment?.author ?? '').endsWith('[bot]') &&
          /^ {0,3}\/docs(\s|$)/.test(comment?.body ?? '')
        return !starts(plan) || (command && mayWrite(f))
      }),
      RUNS
    )
  })

  it('what is not taken writes nothing on GitHub; a refused person gets at most one reaction', () => {
    fc.assert(
      fc.property(anyCommentRun, ({ settings, event, facts: f }) => {
        const plan = decide(settings, event, f)
        // A writer's command whose record could not be read says on the check that nothing was sent.
        if (
          plan.act !== 'skip' ||
          ['own', 'record-unknown', 'record-mismatch'].includes(plan.why.code)
        )
          return true
        if (!writesNothing(plan) || plan.check !== 'leave') return false
        // One reaction: on a refused person's command, or on a writer's that no longer stands.
        return (
          inertOn(plan) === undefined ||
          (f.kind?.kind === 'command' && !mayWrite(f)) ||
          (f.kind?.kind === 'stopped' && f.kind.answer)
        )
      }),
      RUNS
    )
  })

  it('a command taken is acknowledged on its comment, and a follow-up falls back to a new job', () => {
    fc.assert(
      fc.property(anyCommentRun, ({ settings, event, facts: f }) => {
        const plan = decide(settings, event, f)
        if (!starts(plan)) return true
        const followsRecord = plan.act === 'follow-up' && !settings.jobId
        // A payload without the comment's id leaves nothing to acknowledge.
        const commentId = f.kind?.kind === 'command' ? f.kind.commentId : undefined
        return (
          acknowledgedOn(plan) === commentId &&
          inertOn(plan) === undefined &&
          plan.act !== 'attach' &&
          (!followsRecord || plan.fallback?.act === 'create')
        )
      }),
      RUNS
    )
  })
})

const writer = known({ role: 'write', permission: 'write' })
const command = (request: string, permission: Knowable<Permission | undefined> = writer) => ({
  kind: 'command' as const,
  request,
  login: HUMAN,
  commentId: 11,
  permission
})
const recorded = (phase: 'running' | 'completed', docs: 'open' | 'merged' | 'none') =>
  facts({
    kind: command('Also document --retries'),
    pulls: known([{ number: 2, author: HUMAN }]),
    pull: pull({ recorded: known({ projectId: PROJECT, jobId: 'job_rec', sha: 'd'.repeat(40) }) }),
    job: job('pull', known(phase), known(docs))
  })

describe('a /docs command (named cases)', () => {
  const run = (f: Facts, body = '/docs Also document --retries') =>
    decide(SETTINGS, commentEvent(body), f)

  it('goes to the job the pull request records while it is at work, even one told this commit', () => {
    expect(run(recorded('running', 'open'))).toMatchObject({
      act: 'follow-up',
      jobId: 'job_rec',
      fallback: { act: 'create' }
    })
    expect(acknowledgedOn(run(recorded('running', 'open')))).toBe(11)
  })

  it('starts a job when none is recorded, or the recorded one is done', () => {
    expect(run(facts({ kind: command('') }))).toMatchObject({ act: 'create' })
    expect(run(recorded('completed', 'merged'))).toMatchObject({ act: 'create' })
  })

  it.each([
    ['triage', known({ role: 'triage', permission: 'read' })],
    ['read', known({ role: 'read', permission: 'read' })],
    ['no collaborator', known(undefined)],
    ['an unreadable permission', unknown('GitHub answered 502.')]
  ])('is refused for %s, with one inert reaction and nothing written', (_, permission) => {
    const plan = run(facts({ kind: command('Also', permission) }))
    expect(plan).toMatchObject({
      act: 'skip',
      check: 'leave',
      effects: [{ kind: 'react', commentId: 11, content: 'confused' }]
    })
    expect(planWords(plan).reason).toContain('only people who can write to the repository')
  })

  it('ignores a comment that is no command, quietly', () => {
    const plan = run(
      facts({ kind: { kind: 'ignored', why: 'The comment does not start with /docs.' } }),
      'LGTM'
    )
    expect(plan).toMatchObject({ act: 'skip', check: 'leave', effects: [] })
    expect(planWords(plan).reason).toContain('only a /docs command does anything')
  })
})

/** A writer's command that no longer stands, for every reason the read stage gives. */
const anyStopped = fc.record({
  kind: fc.constant('stopped' as const),
  login: fc.constantFrom(HUMAN, 'mona'),
  commentId: fc.option(fc.constantFrom(11, 12), { nil: undefined }),
  why: fc.constantFrom(
    'The comment was deleted before the run started.',
    'The comment was edited before the run started.',
    'pull request #2 is closed without merging.',
    'The head of pull request #2 moved after the comment.'
  ),
  answer: fc.boolean()
})

describe('a command that no longer stands (properties)', () => {
  it('starts nothing, writes nothing but one 😕 where its comment is still there', () => {
    fc.assert(
      fc.property(anySettings, anyStopped, (settings, stopped) => {
        const ev = commentEvent('/docs Also document --retries')
        const f = facts({
          kind: stopped,
          pulls: known([{ number: 2, author: HUMAN }]),
          pull: pull({ recorded: known({ projectId: PROJECT, jobId: 'job_rec' }) }),
          job: job('pull', known('running'), known('open'))
        })
        const plan = decide(settings, ev, f)
        if (plan.act !== 'skip' || plan.check !== 'leave' || !writesNothing(plan)) return false
        const reacts = stopped.answer && stopped.commentId !== undefined
        return inertOn(plan) === (reacts ? stopped.commentId : undefined)
      }),
      RUNS
    )
  })

  it('says why in the log', () => {
    const plan = decide(
      SETTINGS,
      commentEvent('/docs'),
      facts({
        kind: {
          kind: 'stopped',
          login: HUMAN,
          commentId: 11,
          why: 'pull request #2 is merged.',
          answer: true
        }
      })
    )
    expect(planWords(plan).reason).toBe(
      `/docs by ${HUMAN} was not carried out: pull request #2 is merged. Nothing was sent to Mintlify.`
    )
  })
})
