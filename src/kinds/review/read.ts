/** A review event reads nothing: it is conversation about the code, never a command. */
import { unknown } from '../../run/read/known.js'
import type { Read, ReadContext } from '../../run/read/read.js'
import { forLog } from '../../base/sanitize.js'

/** Why a review does nothing, in words that name its event. */
export interface ReviewFacts {
  readonly why: string
}

export function readReview({ event }: ReadContext): Promise<Read<ReviewFacts>> {
  const name = forLog(event?.name ?? 'review', 60)
  const why =
    `A ${name} event is part of a review: a review never commands the docs job, and is no ` +
    'change to the code to document.'
  const pulls = unknown('A comment that is not a command to take reads nothing more.', 'not-asked')
  return Promise.resolve({ facts: { pulls, kind: { why } } })
}
