/**
 * What a run finds out before it plans, all bounded and best effort: the change for the prompt,
 * the code pull request's status comment and the job it records, and what became of that job's
 * docs pull request.
 */
import type { GitHubApi } from '../github/api.js'
import { Companion, pullRequestOf } from '../github/companion.js'
import { readDocsPull, type DocsReaders } from '../github/docs-pull.js'
import type { Settings } from '../inputs.js'
import type { MintlifyApi } from '../mintlify/api.js'
import { readRecordedJob } from '../mintlify/start.js'
import { agentEvent, agentPull, planJob, type AgentWork, type Found, type Plan } from '../plan.js'
import { joinBranch } from './branch.js'
import type { Step } from '../step.js'
import { gathersOn } from './code.js'
import { closedPull, ZERO_SHA, type Event } from './event.js'
import { preparePrompt, type PreparedPrompt } from './prompt.js'

export interface LookedUp {
  /** The change is the agent's own work: nothing is read, started or written but the check. */
  readonly own?: AgentWork
  /**
   * The prompt with the change; none yet on a branch that gathers (read once the job it joins is
   * known), and none for a closed pull request, which starts nothing.
   */
  readonly prepared?: PreparedPrompt
  /** The branch a run gathers on (`reuse-job`, `context: auto`, no `job-id`). */
  readonly gathers?: string
  /** The code pull request's status comment, with `comment: auto`. */
  readonly companion?: Companion
  /** What that comment records. */
  readonly found?: Found
}

/** The change and the pull request's comment are read at the same time: the plan needs both. */
export async function lookUp(
  settings: Settings,
  event: Event | undefined,
  github: GitHubApi | undefined,
  step: Step
): Promise<LookedUp> {
  const own = event && agentEvent(settings, event)
  if (own) return { own }
  const closed = event !== undefined && closedPull(event) !== undefined
  // On a branch that gathers into one job, the change is read once the job it joins is known.
  const gathers = event && github ? gathersOn(settings, event) : undefined
  const [prepared, found] = await Promise.all([
    closed || gathers
      ? undefined
      : preparePrompt(settings, event, github, step.within(step.budgets.change), step.log),
    event && github && settings.comment === 'auto'
      ? openCompanion(event, github, settings, step)
      : undefined
  ])
  const ownPull = event && found && agentPull(settings, event, found.found)
  if (ownPull && !closed) return { own: ownPull }
  return { prepared, gathers, companion: found?.companion, found: found?.found }
}

/** The companion for the pull request the change belongs to, and the job its comment records. */
async function openCompanion(event: Event, github: GitHubApi, settings: Settings, step: Step) {
  const within = step.within(step.budgets.lookup)
  const pull = await pullRequestOf(event, github, within, step.log)
  if (pull === undefined) return undefined
  const { number, headSha, author } = pull
  const companion = new Companion(
    github,
    event,
    number,
    settings.projectId,
    step.log,
    settings.reuseJob
  )
  const recorded = await companion.find(within)
  return { companion, found: { number, headSha, author, docsPull: companion.docsPull, recorded } }
}

/**
 * What the status comment records, with the recorded job's docs pull request read first (one
 * read of the job, one of the pull request), so nothing is sent to a job whose docs are done.
 * When the job cannot be read, the plan goes on as if nothing more were known.
 */
export async function recordedDocs(
  found: Found,
  settings: Settings,
  api: MintlifyApi,
  event: Event,
  readers: DocsReaders,
  step: Step
): Promise<Found> {
  const jobId = found.recorded?.jobId
  if (!jobId || settings.jobId || !settings.reuseJob) return found
  const job = await readRecordedJob(api, jobId, step.lookupSchedule(), step)
  if (!job) return found
  const docs = await readDocsPull(job, event, readers, step.within(step.budgets.lookup))
  if (docs?.why) step.log.info(docs.why)
  return { ...found, docs }
}

/** What the run does: a plan and its prompt, or a skip; and on a branch, what it records. */
export type Decided = {
  /** A run on a branch: the branch and the last documented commit, which its check records. */
  readonly branch?: { readonly name: string; readonly base?: string }
} & (
  | { readonly skip: { readonly reason: string; readonly check?: string } }
  | { readonly plan: Plan; readonly prompt: string; readonly found?: Found }
)

/**
 * The plan stage: the agent's own work skips; a run on a branch joins the job its docs check
 * records (unless its commit's pull request records one), and its change is read from where the
 * docs were last told; a recorded job's docs pull request is read before anything is sent to it.
 */
export async function decide(
  settings: Settings,
  event: Event | undefined,
  looked: LookedUp,
  readers: DocsReaders,
  api: MintlifyApi | undefined,
  step: Step
): Promise<Decided> {
  const { found, own } = looked
  if (own) return { skip: own }
  const github = readers.workflow
  const branch = looked.gathers
  const joined =
    event && github && branch && !found?.recorded
      ? await joinBranch(settings, event, branch, github, readers, api, step)
      : undefined
  // A push whose pull request records a job records that job on the branch too, so the next run
  // there neither joins an older job nor tells the pull request's commits again.
  const before = event?.before && !ZERO_SHA.test(event.before) ? event.before : undefined
  const viaPull = branch &&
    found?.recorded && { name: branch, base: before, jobId: found.recorded.jobId }
  const recording = joined
    ? { branch: { name: joined.branch, base: joined.base } }
    : viaPull
      ? { branch: viaPull }
      : {}
  const nothingNew = joined?.nothingNew && planJob(settings, '', undefined, joined).skip
  if (nothingNew) return { ...recording, skip: nothingNew }
  const within = step.within(step.budgets.change)
  const prepared =
    looked.prepared ??
    (await preparePrompt(settings, event, github, within, step.log, joined?.since))
  if (prepared.skip) return { ...recording, skip: { reason: prepared.skip } }
  const known =
    api && event && found ? await recordedDocs(found, settings, api, event, readers, step) : found
  const plan = planJob(settings, prepared.prompt, known, joined)
  if (plan.skip) return { ...recording, skip: plan.skip }
  return { ...recording, plan, prompt: prepared.prompt, found }
}
