import { z } from 'zod'

/**
 * A field the platform documents as a string. Any field may be missing, null, or (from a proxy or
 * a future API version) of another type: such a value reads as absent rather than failing the run.
 */
const text = z.string().nullish().catch(undefined)

/** The agent job as the API returns it. Unknown fields are kept for the `job` output. */
const JobSchema = z.looseObject({
  id: text,
  status: text,
  model: text,
  prLink: text,
  createdAt: text,
  archivedAt: text,
  source: z.looseObject({ repository: text, ref: text }).nullish().catch(undefined)
})

export type Job = z.infer<typeof JobSchema>

/** The fields that make a JSON object a job; an answer with none of them is something else. */
export const JOB_FIELDS = [
  'id',
  'status',
  'prLink',
  'model',
  'createdAt',
  'archivedAt',
  'source'
] as const

/**
 * Parses a response body into a job. Undefined when the body is not a job: not a JSON object, an
 * error body (`{"error": …}`, whatever its status), or an object with none of the job's fields.
 */
export function parseJob(body: unknown): Job | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'error' in body) return undefined
  if (!JOB_FIELDS.some((field) => field in body)) return undefined
  const result = JobSchema.safeParse(body)
  return result.success ? result.data : undefined
}

/**
 * The job as the action knows it after reading `latest`: what the answer says, except that a
 * field it leaves out or sets to null keeps the value known before, and the id is always the one
 * the job was created with. A partial answer never erases what the action has already reported.
 */
export function mergeJob(known: Job, latest: Job): Job {
  const merged: Record<string, unknown> = { ...known }
  for (const [field, value] of Object.entries(latest)) {
    // A null the action has nothing better for is kept, so the record keeps its shape.
    if ((value !== null && value !== undefined) || !(field in merged)) merged[field] = value
  }
  if (known.source && latest.source) {
    const source: Record<string, unknown> = { ...known.source }
    for (const [field, value] of Object.entries(latest.source)) {
      if (value !== null && value !== undefined) source[field] = value
    }
    merged.source = source
  }
  if (known.id) merged.id = known.id
  return JobSchema.parse(merged)
}

/** Where a job stands, from the action's point of view. */
export type Phase = 'running' | 'completed' | 'archived' | 'failed'

/**
 * Every status the API documents, and whether the job is finished. A status missing from this
 * table is treated as still running: a new status must never be mistaken for success.
 */
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

/** Longest job id accepted, from an input or from a record on a pull request. */
export const MAX_JOB_ID_LENGTH = 256

/**
 * What is wrong with a job id that came from outside (the `job-id` input, a recorded id), in words
 * that follow "the id …"; undefined when it can be used.
 */
export function jobIdProblem(id: string): string | undefined {
  if (id.trim() === '') return 'is blank'
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(id)) return 'contains whitespace or control characters'
  if (id === '.' || id === '..') return 'cannot be "." or ".."'
  if (id.length > MAX_JOB_ID_LENGTH) return `is longer than ${MAX_JOB_ID_LENGTH} characters`
  return undefined
}
