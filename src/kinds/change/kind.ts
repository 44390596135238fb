/**
 * A change to document, and any run no other kind takes. On a branch that gathers, its pushes go
 * to one docs job, whose record the branch's docs check keeps.
 */
import type { Kind } from '../kind.js'
import { decideChange } from './decide.js'
import { readChange } from './read.js'

export const change: Kind = {
  name: 'change',
  detects: () => true,
  read: readChange,
  decide: decideChange
}
