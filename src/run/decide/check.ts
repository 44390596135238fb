/**
 * Whether a run sets the docs check: on a change of its own, or a branch that gathers (the check
 * keeps its record); never on a dry run, a deleted branch, a closed pull request or a schedule's
 * commit. With `context: off` the job is not told the change: only a `paths` skip is said. Pure.
 */
import type { Settings } from '../../given/inputs.js'
import type { Effect } from './plan.js'
import { codeCommit, gathersOn } from '../change/code.js'
import { closedPull, ownChange, type Event } from '../../given/event.js'

/** `none`: no check; `full`: the run's state; `skips-only`: only a skip by `paths`. */
type CheckScope = 'none' | 'full' | 'skips-only'

export type CheckSettings = Pick<
  Settings,
  'check' | 'dryRun' | 'context' | 'paths' | 'reuseJob' | 'jobId'
>

export function checkScope(settings: CheckSettings, event: Event | undefined): CheckScope {
  if (settings.check === 'off' || settings.dryRun || !event || !codeCommit(event)) return 'none'
  const change = ownChange(event) || gathersOn(settings, event) !== undefined
  if (!change || event.deleted || closedPull(event)) return 'none'
  if (settings.context === 'off') return settings.paths.length > 0 ? 'skips-only' : 'none'
  return 'full'
}

/** An effect once resolved for this run: the check carries the scope it was given. */
export type Resolved =
  Exclude<Effect, { kind: 'check' }> | { readonly kind: 'check'; readonly skipsOnly: boolean }

export function resolveEffects(
  effects: readonly Effect[],
  settings: CheckSettings,
  event: Event | undefined
): Resolved[] {
  const scope = checkScope(settings, event)
  return effects.flatMap((effect): Resolved[] => {
    if (effect.kind !== 'check') return [effect]
    return scope === 'none' ? [] : [{ kind: 'check', skipsOnly: scope === 'skips-only' }]
  })
}
