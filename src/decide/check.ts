/**
 * Whether a run sets the docs check, and what it may say there: only on a change of its own (a
 * push, a pull request, or a `/docs` command on one, on the pull request's head), or on a branch
 * that gathers into one docs job, whose record the check keeps. Never on a dry run, a deleted
 * branch, a closed pull request, or a scheduled or manual run on whatever commit a branch is at.
 * With `context: off` the job is not told the change, so the check only says when `paths` found
 * nothing to document. The plan's effects carry this out (`resolveEffects`). Pure.
 */
import type { Settings } from '../inputs.js'
import type { Effect } from './plan.js'
import { codeCommit, gathersOn } from '../trigger/code.js'
import { closedPull, ownChange, type Event } from '../trigger/event.js'

/** `none`: no check; `full`: the run's state; `skips-only`: only a skip by `paths`. */
export type CheckScope = 'none' | 'full' | 'skips-only'

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

/** The plan's effects for this run: the check where `checkScope` allows one, with its scope. */
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
