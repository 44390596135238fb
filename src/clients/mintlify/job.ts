import { z } from 'zod'
import { jobIdProblem } from '../../base/job-id.js'
import { isPullLinkShape, isRepoLinkShape } from '../../given/ref.js'

/** A string field: of another type (a proxy, a later API version) it reads as absent. */
export const stringField = z.string().nullish().catch(undefined)

/** The agent job: only the fields the action names, so nothing else the API sends is handed on. */
const JobSchema = z.object({
  id: stringField,
  status: stringField,
  model: stringField,
  prLink: stringField,
  createdAt: stringField,
  archivedAt: stringField,
  source: z.object({ repository: stringField, ref: stringField }).nullish().catch(undefined)
})

export type Job = z.infer<typeof JobSchema>

/** The fields of a job; a JSON object with none of them is something else. */
export const JOB_FIELDS = JobSchema.keyof().options

/**
 * The fields the platform names a place or a job with. Each is taken in one shape only, and read
 * as absent otherwise: the answer is data, never an instruction where to write. Links and
 * branches are what tokens act on, so their shapes are strict; an id is opaque (`jobIdProblem`).
 */
export type NamedField = 'id' | 'prLink' | 'source.repository' | 'source.ref'

// A branch as the agent names them (`mintlify/docs-update-…`): characters git allows that need
// no quoting anywhere, and none of git's forbidden sequences.
function isBranchShape(ref: string): boolean {
  return (
    /^[A-Za-z0-9_][A-Za-z0-9_./+-]{0,254}$/.test(ref) && !/\.\.|\/\/|\/\.|\.lock$|[/.]$/.test(ref)
  )
}

const SHAPES: Record<NamedField, (value: string) => boolean> = {
  id: (id) => jobIdProblem(id) === undefined,
  prLink: isPullLinkShape,
  'source.repository': isRepoLinkShape,
  'source.ref': isBranchShape
}

/** Whether `value` of `field` is in the field's one accepted shape. */
export function inShape(field: NamedField, value: string): boolean {
  return SHAPES[field](value)
}

// A symbol key: the `job` output's JSON never shows it.
const REFUSED = Symbol('refused')

/** The named fields of `job` the platform gave in a shape the action does not accept. */
export function refusedFields(job: Job | undefined): readonly NamedField[] {
  return (job as { [REFUSED]?: NamedField[] } | undefined)?.[REFUSED] ?? []
}

function withRefused(job: Job, refused: readonly NamedField[]): Job {
  if (refused.length > 0) Object.defineProperty(job, REFUSED, { value: refused })
  return job
}

function valueOf(job: Job, field: NamedField): string | null | undefined {
  if (field === 'id' || field === 'prLink') return job[field]
  return job.source?.[field === 'source.ref' ? 'ref' : 'repository']
}

/**
 * A response body as a job; undefined for anything else (an error body, whatever its status, or
 * none of the job's fields). A named field out of its shape reads as null (`refusedFields`).
 */
export function parseJob(body: unknown): Job | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'error' in body) return undefined
  if (!JOB_FIELDS.some((field) => field in body)) return undefined
  const result = JobSchema.safeParse(body)
  if (!result.success) return undefined
  const job = result.data
  const refused: NamedField[] = []
  const keep = (field: NamedField) => {
    const value = valueOf(job, field)
    if (typeof value !== 'string' || inShape(field, value)) return value
    refused.push(field)
    return null
  }
  const shaped = { ...job, id: keep('id'), prLink: keep('prLink') }
  if (job.source) {
    shaped.source = { repository: keep('source.repository'), ref: keep('source.ref') }
  }
  return withRefused(shaped, refused)
}

/** `known` with each field `latest` gives, except a null or a missing value over a known one. */
function overlay<T extends object>(known: T, latest: T): T {
  const merged: Record<string, unknown> = { ...(known as Record<string, unknown>) }
  for (const [field, value] of Object.entries(latest)) {
    if (value != null || !(field in merged)) merged[field] = value
  }
  return merged as T
}

/**
 * The job after reading `latest`: a partial answer never erases what was reported, and the id
 * stays the one the job was created with.
 */
export function mergeJob(known: Job, latest: Job): Job {
  const merged = overlay(known, latest)
  if (known.source && latest.source) merged.source = overlay(known.source, latest.source)
  if (known.id) merged.id = known.id
  const job = JobSchema.parse(merged)
  // A field refused in any answer and known from none is still refused.
  const refused = new Set([...refusedFields(known), ...refusedFields(latest)])
  return withRefused(
    job,
    [...refused].filter((field) => valueOf(job, field) == null)
  )
}

/** Where a job stands, from the action's point of view. */
export type Phase = 'running' | 'completed' | 'archived' | 'failed'

/** Every status the API documents; any other counts as running, never mistaken for success. */
export const STATUS_TABLE: ReadonlyMap<string, Phase> = new Map([
  ['active', 'running'],
  ['completed', 'completed'],
  ['archived', 'archived'],
  ['failed', 'failed']
])

/** The phase of a status, and whether the status is one the action knows. */
export function classifyStatus(status: string | null | undefined): {
  phase: Phase
  known: boolean
} {
  const phase = status ? STATUS_TABLE.get(status) : undefined
  return phase ? { phase, known: true } : { phase: 'running', known: false }
}
