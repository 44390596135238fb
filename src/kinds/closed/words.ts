/** A closed code pull request's reason, in its own words. */
import type { KindWhy } from '../../run/decide/plan.js'

export const closedWhy = (merged: boolean): KindWhy => ({
  code: 'kind',
  kind: 'closed',
  reason: merged ? 'merged' : 'closed',
  words: {
    reason: `The code pull request was ${merged ? 'merged' : 'closed without merging'}: no docs job is started or messaged.`
  }
})
