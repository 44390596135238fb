/** The read of a change to document (and of a closed pull request, a command's pull request). */
import type { Settings } from '../../given/inputs.js'
import type { BranchFacts, Facts, JobFacts, PullFacts } from '../../run/read/facts.js'
import { known, unknown } from '../../run/read/known.js'
import { agentByEvent, agentByPulls } from '../../run/read/own.js'
import { readPull } from '../../run/read/pull.js'
import type { Read, ReadContext } from '../../run/read/read.js'
import { readBranchRecord, readRecordedJob, recordedDocs } from '../../run/read/recorded.js'
import { codeCommit, gathersOn } from '../../run/change/code.js'
import { closedPull } from '../../given/event.js'
import { preparePrompt } from '../../run/change/prompt.js'

/** What a run about a change may learn, and no more than its decision may need. */
export async function readChange(run: ReadContext): Promise<Read<never>> {
  const { settings, event, readers, api, step, context } = run
  const github = readers.workflow
  const changeWithin = () => step.time.within('change')
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
  const facts: Facts<never> = { pulls, pull, prepared }
  // The agent's own work, or what cannot be told from it, reads only the record it carries on.
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
  // A closed pull request's job is read where it is acted on; a record on this very commit that
  // says how its job ended leaves nothing to mend, so a quiet night asks the platform nothing.
  const record = branch?.record.known ? branch.record.value : undefined
  const settled = !fromPull && record?.settled === true && record.told === codeCommit(event)?.sha
  const job =
    jobId && !closed && !stops && !settled
      ? await readRecordedJob(jobId, from, event, readers, api, step, recordedDocs(facts, jobId))
      : undefined
  return { facts: { ...facts, branch, job }, companion }
}

/** The job the pull request's comment records, when later runs send it the change. */
function reusable(settings: Settings, pull: PullFacts): string | undefined {
  if (!settings.reuseJob || settings.jobId || !pull.recorded.known) return undefined
  return pull.recorded.value?.jobId
}
