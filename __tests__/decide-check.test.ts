// Where the docs check is set, as properties of the decision over every kind of event and the
// inputs that bear on it, then named cases. The check says something of one commit's change, so
// it is never set where the run documents none (a schedule on whatever commit a branch is at,
// a closed pull request, a deleted branch) or writes nothing (a dry run).
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { checkScope, resolveEffects, type CheckSettings } from '../src/run/decide/check.js'
import { COMMON_EFFECTS } from '../src/run/decide/plan.js'
import type { Event } from '../src/given/event.js'
import { anyEvent, commentEvent, event, HEAD, pullEvent, push } from './decide-inputs.js'

const DEFAULTS: CheckSettings = {
  check: 'auto',
  dryRun: false,
  context: 'auto',
  paths: [],
  reuseJob: false,
  jobId: ''
}

const anyCheckSettings: fc.Arbitrary<CheckSettings> = fc.record({
  check: fc.constantFrom('auto', 'auto', 'off' as const),
  dryRun: fc.boolean(),
  context: fc.constantFrom('auto', 'auto', 'off' as const),
  paths: fc.constantFrom([], ['docs/**'], ['src/**', '!src/test/**']),
  reuseJob: fc.boolean(),
  jobId: fc.constantFrom('', '', 'job_given')
})

/** Every event the decision meets, and the ones the check must refuse most carefully. */
const events: fc.Arbitrary<Event> = fc.oneof(
  anyEvent,
  fc.constant(push(['octocat'], { deleted: true, after: '0'.repeat(40) })),
  fc.constant(push(['octocat'], { ref: 'refs/tags/v1.0.0' })),
  // A command whose pull request's head could not be read: no commit to set it on.
  fc.constant({
    ...commentEvent('/docs'),
    pullRequest: { number: 2, title: 't', body: '', author: 'octocat' }
  }),
  fc
    .constantFrom('schedule', 'workflow_dispatch')
    .map((name) => event(name, { ref: 'refs/tags/v1.0.0' })),
  fc.constantFrom('release', 'issues', 'pull_request_review').map((name) => event(name))
)

/** The branch a run gathers on: as `gathersOn` says, restated from the README's words. */
const gathers = (settings: CheckSettings, ev: Event) =>
  settings.reuseJob &&
  !settings.jobId &&
  settings.context === 'auto' &&
  ['push', 'schedule', 'workflow_dispatch'].includes(ev.name) &&
  !ev.deleted &&
  (ev.ref ?? '').startsWith('refs/heads/')

describe('where the docs check is set (property)', () => {
  it('never on a dry run, with check: off, or where there is no commit', () => {
    fc.assert(
      fc.property(anyCheckSettings, events, (settings, ev) => {
        const scope = checkScope(settings, ev)
        const head = ev.pullRequest ? ev.pullRequest.headSha : (ev.after ?? ev.sha)
        const refused = settings.dryRun || settings.check === 'off' || !head
        // Where the rule refuses the check, the scope is none; elsewhere this says nothing.
        expect(refused ? scope : 'none').toBe('none')
      }),
      { numRuns: 2000 }
    )
  })

  it('never on a closed pull request, a deleted branch, or a run that documents no change of its own', () => {
    fc.assert(
      fc.property(anyCheckSettings, events, (settings, ev) => {
        const scope = checkScope(settings, ev)
        const closed = ev.action === 'closed' && ev.name.startsWith('pull_request')
        const ownChange =
          ev.name === 'push' || ev.name.startsWith('pull_request') || ev.name === 'issue_comment'
        const refused = closed || ev.deleted || !(ownChange || gathers(settings, ev))
        expect(refused ? scope : 'none').toBe('none')
      }),
      { numRuns: 2000 }
    )
  })

  it('with context: off, says only what paths skipped, and nothing without paths', () => {
    fc.assert(
      fc.property(anyCheckSettings, events, (settings, ev) => {
        const scope = checkScope({ ...settings, context: 'off' }, ev)
        expect(scope).not.toBe('full')
        expect(settings.paths.length === 0 ? scope : 'none').toBe('none')
      }),
      { numRuns: 2000 }
    )
  })

  it('on every change of its own the defaults set it in full', () => {
    fc.assert(
      fc.property(events, (ev) => {
        const closed = ev.action === 'closed' && ev.name.startsWith('pull_request')
        const ownChange =
          ev.name === 'push' || ev.name.startsWith('pull_request') || ev.name === 'issue_comment'
        const head = ev.pullRequest ? ev.pullRequest.headSha : (ev.after ?? ev.sha)
        const expected = ownChange && !closed && !ev.deleted && head ? 'full' : 'none'
        expect(checkScope(DEFAULTS, ev)).toBe(expected)
      }),
      { numRuns: 2000 }
    )
  })
})

describe('where the docs check is set (cases)', () => {
  it.each<[string, Partial<CheckSettings>, Event, string]>([
    ['a push', {}, push(), 'full'],
    ['a pull request update', {}, pullEvent(), 'full'],
    ['a merged pull request', {}, pullEvent('octocat', 'closed', true), 'none'],
    ['a /docs command on the head it read', {}, commentEvent('/docs'), 'full'],
    ['a schedule that does not gather', {}, event('schedule'), 'none'],
    ['a schedule that gathers on main', { reuseJob: true }, event('schedule'), 'full'],
    [
      'a manual run with job-id',
      { reuseJob: true, jobId: 'job_1' },
      event('workflow_dispatch'),
      'none'
    ],
    [
      'a push with context: off and paths',
      { context: 'off', paths: ['src/**'] },
      push(),
      'skips-only'
    ],
    ['a push on a dry run', { dryRun: true }, push(), 'none']
  ])('%s', (_, settings, ev, scope) => {
    expect(checkScope({ ...DEFAULTS, ...settings }, ev)).toBe(scope)
    expect(ev.sha).toBe(HEAD)
  })
})

describe('the effects a run carries out', () => {
  it('keep the check only where its scope allows one, with that scope, and every other effect as planned', () => {
    fc.assert(
      fc.property(anyCheckSettings, events, (settings, ev) => {
        const scope = checkScope(settings, ev)
        const resolved = resolveEffects(COMMON_EFFECTS, settings, ev)
        const check = resolved.find((effect) => effect.kind === 'check')
        expect(check).toEqual(
          scope === 'none' ? undefined : { kind: 'check', skipsOnly: scope === 'skips-only' }
        )
        expect(resolved.filter((effect) => effect.kind !== 'check')).toEqual(
          COMMON_EFFECTS.filter((effect) => effect.kind !== 'check')
        )
      })
    )
  })
})
