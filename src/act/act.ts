/** The act stage: carries out the plan and keeps the run's state as it goes, for the sinks. */
import { readDocsChecks } from '../clients/github/docs-checks.js'
import { readDocsPull } from '../clients/github/docs-pull.js'
import { readDocsPushes } from '../clients/github/docs-pushes.js'
import type { Recorded } from '../clients/github/companion.js'
import { nothingToTell, type Close, type Plan, type Start } from '../run/decide/plan.js'
import type { Settings } from '../given/inputs.js'
import type { MintlifyApi } from '../clients/mintlify/api.js'
import { waitForJob } from '../clients/mintlify/poll.js'
import { tryReadJob } from '../clients/mintlify/read-job.js'
import { CLOSED_WITHOUT, dryRunTitle, NO_JOB_ID, planWords, skipWords } from '../report/plan.js'
import { closeAll, takeAll } from '../report/sinks/sink.js'
import type { Facts } from '../run/read/facts.js'
import { recordedDocs } from '../run/read/recorded.js'
import { endsWithLink, endsWithoutLink, type Mode } from '../run/state.js'
import type { Event } from '../given/event.js'
import { preparePrompt } from '../run/change/prompt.js'
import { begin } from './start.js'
import { preview, previewDryRun } from './preview.js'
import type { Run } from './state.js'

/** Acts on `plan`, which the decision made from `facts`. */
export async function act(run: Run, event: Event | undefined, facts: Facts, plan: Plan) {
  const { settings, step, readers } = run
  // The record's last preview stays the record's until this run has one accepted.
  const recorded = facts.pull?.recorded.known ? facts.pull.recorded.value : undefined
  if (recorded?.preview) run.state.previewed = { jobId: recorded.jobId, sha: recorded.preview }
  let prepared = facts.prepared
  if (plan.act !== 'skip' && plan.act !== 'close' && !prepared) {
    // A branch that gathers reads its change from where the plan says, which may leave nothing.
    const within = step.time.within('change')
    const since = plan.tell?.since
    prepared = await preparePrompt(settings, event, readers.workflow, within, step.log, since)
    if (prepared.skip) plan = nothingToTell(plan, prepared.skip)
  }
  const words = planWords(plan)
  if (words.warning) run.report.warning(words.warning)
  if (plan.act === 'close') return followClosed(run, plan, facts)
  if (plan.keep) run.state.branch = plan.keep
  if (plan.act === 'skip') {
    const { check } = plan
    const says =
      check === 'leave' ? { leaveCheck: true } : check === 'error' ? { checkState: check } : {}
    return void (run.state.outcome = { kind: 'skipped', ...skipWords(plan), ...says })
  }
  // Taken: the sinks that say so at once (a command's `eyes`) write beside the start.
  takeAll(run.sinks, run.state)
  await start(run, event, plan, prepared?.prompt ?? settings.prompt, words, facts)
}

/** start → watch → read the docs pull request, for a plan that starts or continues a job. */
async function start(
  run: Run,
  event: Event | undefined,
  plan: Start,
  prompt: string,
  words: { reason?: string; note?: string },
  facts: Facts
) {
  const recorded = facts.pull?.recorded.known ? facts.pull.recorded.value : undefined
  const { state, settings, step, report, readers, api } = run
  const after = () => step.time.within('after')
  state.mode = plan.act
  // The job to attach to or to message exists before the request: whatever happens to it (a
  // timeout, a refusal), the run names the job it tried to follow.
  if (plan.act !== 'create') state.job = { id: plan.jobId }
  if (words.reason) report.info(words.reason)
  if (!api) {
    report.prompt(prompt, dryRunTitle(plan))
    previewDryRun(run)
    return void (state.outcome = { kind: 'dry-run' })
  }
  // Asked, and not accepted until the platform answers.
  state.accepted ??= false
  const begun = await begin(plan, prompt, api, run)
  state.job = begun.job
  state.mode = begun.mode
  state.accepted = true
  if (begun.keep) state.branch = begun.keep
  for (const note of [words.note, begun.note]) if (note) state.notes.push(note)
  state.told = toldCommit(settings, begun, recorded, state.trigger?.commit?.sha)
  state.recordedDocs = recordedDocs(facts, begun.job.id)
  if (!begun.job.id) throw new Error(NO_JOB_ID)
  // Without waiting, the start is also the end: the sinks write once, when the run is over.
  if (!settings.wait) state.outcome = { kind: 'started', mode: state.mode }
  else await watch(run, api)
  // Nothing says the docs are ready before their pull request was read.
  if (event && endsWithLink(state)) {
    state.docs = await readDocsPull(state.job, event, readers, after(), state.recordedDocs)
    // A warning with the fix once a run (the read of the record may have said it); a link no
    // token is sent for, or one not the agent's, is another surface's warning.
    const unreadSaid = facts.job?.docs.known === false
    const { why, ref, state: seen } = state.docs ?? {}
    if (why && seen !== 'foreign') {
      if (ref && !unreadSaid) report.warning(why)
      else report.info(why)
    }
  }
  // Completed without a link: the deploy branch tells a push from no change.
  if (event && state.job && endsWithoutLink(state)) {
    state.pushes = await readDocsPushes(state.job, event, readers, after())
    if (!state.pushes.known) report.warning(state.pushes.why)
  }
  // A branch's run that only followed a job told this commit has nothing new to preview; a
  // pull request's status comment records the head of its last preview, which decides instead.
  await preview(run, plan.why?.code === 'mend' && recorded?.jobId !== state.job?.id)
  // Last, the open docs pull request's own checks, as they stand when the run ends.
  const proven = state.docs?.state === 'open' ? state.docs.proven : undefined
  if (event && proven) {
    state.docsChecks = await readDocsChecks(proven, event, readers, after())
    if (state.docsChecks.state === 'unknown') report.warning(state.docsChecks.why)
  }
}

/** Polls the job to its end or the deadline, keeping `state.job` current as it goes. */
async function watch({ state, sinks, step, settings }: Run, api: MintlifyApi) {
  state.outcome = { kind: 'running' }
  for (const sink of sinks) sink.started?.(state)
  const job = state.job ?? {}
  const jobId = job.id ?? ''
  const watched = await waitForJob(
    job,
    (ms, signal) => api.getJob(jobId, ms, signal),
    step.time.schedule('job'),
    step,
    { onJob: (latest) => (state.job = latest), afterMessage: state.mode === 'follow-up' }
  )
  state.job = watched.job
  state.outcome =
    watched.kind === 'finished'
      ? { kind: 'finished', phase: watched.phase }
      : { kind: 'timeout', timeoutMs: settings.timeoutMs }
}

/** A code pull request closed: the job the plan names is read once for the sinks that follow it. */
async function followClosed(run: Run, plan: Close, facts: Facts): Promise<void> {
  const { state, sinks, step } = run
  state.outcome = { kind: 'skipped', reason: planWords(plan).reason ?? '' }
  if (sinks.every((sink) => sink.closed === undefined)) return
  if (!plan.jobId) return step.log.info(CLOSED_WITHOUT.record)
  state.accepted ??= false
  const job = await tryReadJob(step.mintlify(), plan.jobId, step.time.schedule('lookup'), step)
  if (!job) return step.log.info(CLOSED_WITHOUT.job)
  state.job = job
  state.mode = 'attach'
  state.accepted = true
  // The record's docs pull request is the only one the end of the code pull request may touch.
  state.recordedDocs = recordedDocs(facts, plan.jobId)
  state.notes.push(...(await closeAll(sinks, state, step.time.within('close'))))
}

/**
 * The last code commit the job knows of, for the status comment: this run's when its prompt told
 * the change (`context: auto`) and was sent, else what the record said of the same job.
 */
function toldCommit(
  settings: Pick<Settings, 'context'>,
  begun: { readonly mode: Mode; readonly job: { readonly id?: string | null } },
  recorded: Recorded | undefined,
  commit: string | undefined
): string | undefined {
  if (settings.context === 'auto' && begun.mode !== 'attach') return commit
  return begun.job.id === recorded?.jobId ? recorded?.sha : undefined
}
