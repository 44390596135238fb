/**
 * A review, a comment on the diff or a review thread (`pull_request_review*`): conversation about
 * the code, not a change to it, and never a command. Nothing is done and nothing is written on
 * GitHub, whatever the facts say. Pure.
 */
import type { Plan } from '../../decide/plan.js'
import type { Facts } from '../../read/facts.js'
import type { ReviewFacts } from './read.js'
import { notACommand } from '../command/words.js'

export function decideReview(facts: Facts<ReviewFacts>): Plan {
  const why =
    facts.kind?.why ??
    'A review never commands the docs job, and is no change to the code to document.'
  return { act: 'skip', why: notACommand(why), check: 'leave', effects: [] }
}
