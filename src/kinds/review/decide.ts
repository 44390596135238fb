/** A review is conversation about the code, never a command: nothing is done or written. */
import type { Plan } from '../../run/decide/plan.js'
import type { Facts } from '../../run/read/facts.js'
import type { ReviewFacts } from './read.js'
import { notACommand } from '../command/words.js'

export function decideReview(facts: Facts<ReviewFacts>): Plan {
  const why =
    facts.kind?.why ??
    'A review never commands the docs job, and is no change to the code to document.'
  return { act: 'skip', why: notACommand(why), check: 'leave', effects: [] }
}
