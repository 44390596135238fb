/** A closed code pull request's words. Pure. */
import type { Why } from '../../decide/plan.js'
import type { PlanWords } from '../../present/words.js'

export function closedWords(why: Extract<Why, { code: 'closed-pull' }>): PlanWords {
  return {
    reason: `The code pull request was ${why.merged ? 'merged' : 'closed without merging'}: no docs job is started or messaged.`
  }
}
