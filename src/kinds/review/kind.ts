/** A review event: it reads nothing, does nothing and writes nothing on GitHub. */
import type { Kind } from '../kind.js'
import type { ReviewFacts } from './read.js'
import { decideReview } from './decide.js'
import { readReview } from './read.js'

export const review: Kind<ReviewFacts> = {
  name: 'review',
  detects: (event) => event?.occasion === 'review',
  read: readReview,
  decide: (_settings, _event, facts) => decideReview(facts)
}
