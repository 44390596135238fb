/** A code pull request closed, merged or not. */
import { closedPull } from '../../given/event.js'
import { decideChange } from '../change/decide.js'
import { readChange } from '../change/read.js'
import type { Kind } from '../kind.js'
import { decideClosed } from './decide.js'

export const closed: Kind = {
  name: 'closed pull request',
  detects: (event) => event !== undefined && closedPull(event) !== undefined,
  read: readChange,
  decide: (settings, event, facts) =>
    event ? decideClosed(settings, event, facts) : decideChange(settings, event, facts)
}
