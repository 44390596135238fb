/**
 * A change to document: a push, a pull request's new commits, a schedule or a manual run, and any
 * run no other kind takes. On a branch that gathers (`reuse-job`, `context: auto`), its pushes
 * go to one docs job, whose record the branch's docs check keeps: the same decision, since a push
 * whose pull request records a job goes to that job first.
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
