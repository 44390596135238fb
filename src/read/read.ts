/**
 * The read stage: everything GitHub and Mintlify can tell a run before it decides, gathered into
 * one value (`Facts`), each read bounded by its budget and what could not be read `unknown`. It
 * reads no more than the decision may need: nothing past the agent's own work, no branch record
 * when the pull request records a job, no job on a dry run.
 */
import { commandPrompt } from '../command/prompt.js'
import type { Companion } from '../github/companion.js'
import type { DocsReaders } from '../github/docs-pull.js'
import type { Settings } from '../inputs.js'
import type { MintlifyApi } from '../mintlify/api.js'
import type { Step } from '../step.js'
import { gathersOn } from '../trigger/code.js'
import { closedPull, conversationEvent, type Event } from '../trigger/event.js'
import { preparePrompt } from '../trigger/prompt.js'
import type { BranchFacts, Facts, JobFacts, PullFacts } from './facts.js'
import { known, unknown } from './known.js'
import { agentByEvent, agentByPulls } from './own.js'
import { readCommandFacts } from './command.js'
import { readPull } from './pull.js'
import { readBranchRecord, readRecordedJob } from './recorded.js'
import type { PullRef } from '../trigger/ref.js'

export interface Read {
  readonly facts: Facts
  /** The code pull request's status comment, for the sinks (`comment: auto`). */
  readonly companion?: Companion
  /**
   * The event as the run goes on with it, when reading changed it: a command's pull request
   * with its head commit.
   */
  readonly event?: Event
}

/** What the run may learn. `context` is the docs check's name, which keeps a branch's record. */
export async function readRun(
  settings: Settings,
  event: Event | undefined,
  readers: DocsReaders,
  api: MintlifyApi | undefined,
  step: Step,
  context: string
): Promise<Read> {
  if (!conversationEvent(event) || !event)
    return readChange(settings, event, readers, api, step, context)
  // A comment or a review: only a command, from someone who may give one, reads anything more.
  const { command, event: seen } = await readCommandFacts(event, readers.workflow, step)
  if (!seen || command.kind !== 'command') {
    const why = 'A comment that is not a command to take reads nothing more.'
    return { facts: { pulls: unknown(why, 'not-asked'), command } }
  }
  const prompt = commandPrompt({
    prompt: settings.prompt,
    request: command.request,
    login: command.login,
    number: seen.pullRequest?.number ?? 0
  })
  // The reviewer asked for it: `paths` does not skip a command.
  const asked = { ...settings, prompt, paths: [] }
  const read = await readChange(asked, seen, readers, api, step, context)
  return { ...read, facts: { ...read.facts, command }, event: seen }
}

/** What a run about a change may learn: its pull requests, records, the recorded job. */
async function readChange(
  settings: Settings,
  event: Event | undefined,
  readers: DocsReaders,
  api: MintlifyApi | undefined,
  step: Step,
  context: string
): Promise<Read> {
  const github = readers.workflow
  const changeWithin = () => step.within(step.budgets.change)
  if (!event) {
    const prepared = await preparePrompt(settings, event, github, changeWithin(), step.log)
    return { facts: { pulls: known([]), prepared } }
  }
  if (agentByEvent(settings, event)) {
    return {
      facts: { pulls: unknown("The event is the agent's own: nothing was read.", 'not-asked') }
    }
  }
  const closed = closedPull(event) !== undefined
  // On a branch that gathers into one job, the change is read once the decision says from where.
  const gathers = github ? gathersOn(settings, event) : undefined
  const [prepared, { pulls, pull, companion }] = await Promise.all([
    closed || gathers
      ? undefined
      : preparePrompt(settings, event, github, changeWithin(), step.log),
    readPull(settings, event, github, gathers !== undefined, step)
  ])
  const facts: Facts = { pulls, pull, prepared }
  // The agent's own work, or work that cannot be told from it, starts nothing: no job is read,
  // only the branch's record, which the run carries forward.
  const stops =
    (agentByPulls(settings, pulls, pull) && !closed) || (!pulls.known && pulls.cause === 'failed')

  const fromPull = pull && reusable(settings, pull)
  const branch: BranchFacts | undefined = gathers
    ? {
        name: gathers,
        record:
          fromPull || !github
            ? unknown('The pull request records the job.', 'not-asked')
            : await readBranchRecord(event, gathers, context, github, step)
      }
    : undefined
  const jobId =
    fromPull ?? (branch?.record.known && !closed ? branch.record.value?.jobId : undefined)
  const from: JobFacts['from'] = fromPull ? 'pull' : 'branch'
  // A closed pull request's job is read where it is acted on, not to plan.
  const job =
    jobId && !closed && !stops
      ? await readRecordedJob(jobId, from, event, readers, api, step, recordedDocs(pull, jobId))
      : undefined
  return { facts: { ...facts, branch, job }, companion }
}

/** The docs pull request the pull request's comment records for `jobId`, when it names one. */
function recordedDocs(pull: PullFacts | undefined, jobId: string): PullRef | undefined {
  const recorded = pull?.recorded.known ? pull.recorded.value : undefined
  return recorded?.jobId === jobId ? recorded.docs : undefined
}

/** The job the pull request's comment records, when later runs send it the change. */
function reusable(settings: Settings, pull: PullFacts): string | undefined {
  if (!settings.reuseJob || settings.jobId || !pull.recorded.known) return undefined
  return pull.recorded.value?.jobId
}
