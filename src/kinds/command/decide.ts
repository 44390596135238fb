/**
 * A `/docs` command goes to the job the pull request records while it is known to be at work,
 * else to a new job. Anything else writes nothing on GitHub but one inert reaction.
 */
import { mayCommand } from './parse.js'
import type { Settings } from '../../given/inputs.js'
import type { Facts } from '../../run/read/facts.js'
import type { CommandFacts } from './facts.js'
import type { Event } from '../../given/event.js'
import { fromPull } from '../change/decide.js'
import { ownWork } from '../../run/decide/own.js'
import { unknownRecord } from '../../run/decide/record-unknown.js'
import { COMMON_EFFECTS, skip } from '../../run/decide/plan.js'
import type { Effect, Plan, Skip, Start } from '../../run/decide/plan.js'
import { notACommand, refused, stopped, taken as takenWhy } from './words.js'

/** A comment that commands nothing writes at most one inert reaction on GitHub. */
function idle(why: Skip['why'], commentId?: number): Skip {
  const effects: Effect[] =
    commentId === undefined ? [] : [{ kind: 'react', commentId, content: 'confused' }]
  return { ...skip(why, 'leave'), effects }
}

export function decideCommand(
  settings: Pick<Settings, 'agentAccounts' | 'jobId' | 'projectId'>,
  event: Event,
  facts: Facts<CommandFacts>
): Plan {
  const command = facts.kind
  if (command?.kind === 'stopped') {
    const { login, commentId, why, answer } = command
    return idle(stopped(login, why), answer ? commentId : undefined)
  }
  if (command?.kind !== 'command') {
    return idle(
      notACommand(command?.why ?? 'The run was not started by a comment that can be read.')
    )
  }
  const { login, commentId, permission } = command
  if (!mayCommand(permission.known ? permission.value : undefined)) {
    return idle(refused(login, permission.known ? undefined : permission.why), commentId)
  }
  const own = ownWork(settings, event, facts)
  if (own) return own
  const number = facts.pull?.number ?? event.pullRequest?.number ?? 0
  const effects: readonly Effect[] =
    commentId === undefined ? COMMON_EFFECTS : [...COMMON_EFFECTS, { kind: 'react', commentId }]
  const taken = (plan: Start): Start => ({
    ...plan,
    effects,
    why: takenWhy(login, number, plan.why)
  })
  if (settings.jobId) return taken({ act: 'follow-up', jobId: settings.jobId })
  const blindly = unknownRecord(event, facts)
  if (blindly) return blindly
  const { pull, job } = facts
  const recorded = pull?.recorded.known ? pull.recorded.value : undefined
  const plan =
    pull && recorded && job?.from === 'pull'
      ? fromPull(settings, event, pull, recorded, job, undefined, true)
      : undefined
  // With a request, the recorded job's plan skips only when its record could not be read.
  if (plan?.act === 'skip') return plan
  if (plan && (plan.act === 'follow-up' || plan.act === 'create')) return taken(plan)
  return taken({ act: 'create', jobId: '' })
}
