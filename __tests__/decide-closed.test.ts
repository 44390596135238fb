// What becomes of the docs pull request when its code pull request is closed, as properties of
// the decision over every end of the code, every `on-code-closed`, and every state of the docs
// pull request and its backlink (read or not yet), then named cases.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { effectsOf } from '../src/run/decide/plan.js'
import { docsClosing, type DocsSeen } from '../src/run/decide/closing.js'
import { decide } from '../src/kinds/registry.js'
import { planWords } from '../src/report/plan.js'
import { facts, HUMAN, pullEvent, SETTINGS } from './decide-inputs.js'

const how = fc.constantFrom('merged' as const, 'closed' as const)
const action = fc.constantFrom('close' as const, 'comment' as const, 'nothing' as const)
const seen: fc.Arbitrary<DocsSeen | undefined> = fc.option(
  fc.record({
    state: fc.constantFrom('open' as const, 'closed' as const),
    marked: fc.constantFrom(undefined, 'merged' as const, 'closed' as const)
  }),
  { nil: undefined }
)

describe('the docs pull request when the code pull request is closed (property)', () => {
  it('a merge is only noted: the docs pull request is never closed or commented on', () => {
    fc.assert(
      fc.property(action, seen, (a, docs) => {
        expect(['read', 'record-merged']).toContain(docsClosing('merged', a, docs).act)
      })
    )
  })

  it('nothing is closed or said before the docs pull request was read', () => {
    fc.assert(
      fc.property(how, action, (h, a) => {
        expect(['read', 'none']).toContain(docsClosing(h, a).act)
      })
    )
  })

  it('closes only with on-code-closed: close, comments only with comment, and only on an open one not yet marked', () => {
    fc.assert(
      fc.property(how, action, seen, (h, a, docs) => {
        const { act } = docsClosing(h, a, docs)
        const untouched = h === 'closed' && docs?.state === 'open' && docs.marked !== 'closed'
        const writes = act === 'close' || act === 'comment'
        expect(writes ? { act, untouched } : { act: a, untouched: true }).toEqual({
          act: a,
          untouched: true
        })
      }),
      { numRuns: 500 }
    )
  })

  it('with on-code-closed: nothing, nothing is read or written when the code was not merged', () => {
    fc.assert(
      fc.property(seen, (docs) => {
        expect(docsClosing('closed', 'nothing', docs)).toEqual({ act: 'none' })
      })
    )
  })

  it('a re-run changes nothing more: once marked, the docs pull request is left and not marked again', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('close' as const, 'comment' as const),
        fc.boolean(),
        (a, open) => {
          const plan = docsClosing('closed', a, {
            state: open ? 'open' : 'closed',
            marked: 'closed'
          })
          expect(plan).toEqual({
            act: 'leave',
            because: open ? 'marked' : 'docs-closed',
            record: false
          })
        }
      )
    )
  })
})

describe('the docs pull request when the code pull request is closed (cases)', () => {
  it.each<[string, Parameters<typeof docsClosing>, ReturnType<typeof docsClosing>]>([
    ['closed, close, open', ['closed', 'close', { state: 'open' }], { act: 'close' }],
    ['closed, comment, open', ['closed', 'comment', { state: 'open' }], { act: 'comment' }],
    [
      'closed, close, someone closed the docs',
      ['closed', 'close', { state: 'closed' }],
      { act: 'leave', because: 'docs-closed', record: true }
    ],
    ['merged, nothing', ['merged', 'nothing', { state: 'open' }], { act: 'record-merged' }],
    ['merged, not read yet', ['merged', 'nothing'], { act: 'read' }],
    ['closed, nothing, not read', ['closed', 'nothing'], { act: 'none' }]
  ])('%s', (_, args, plan) => {
    expect(docsClosing(...args)).toEqual(plan)
  })
})

describe('a closed code pull request’s run', () => {
  it.each([
    [true, 'merged', 'merged'],
    [false, 'closed', 'closed without merging']
  ] as const)(
    'merged: %s ⇒ the docs pull request follows a code pull request %s, and says so',
    (merged, closed, words) => {
      const plan = decide(SETTINGS, pullEvent(HUMAN, 'closed', merged), facts())
      expect(plan.act).toBe('close')
      expect(effectsOf(plan)).toEqual([{ kind: 'comment' }, { kind: 'docs-pull', closed }])
      expect(planWords(plan).reason).toContain(`The code pull request was ${words}:`)
    }
  )
})
