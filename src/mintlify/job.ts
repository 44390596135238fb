import { z } from 'zod'
import { jobIdProblem } from '../job-id.js'
import { isPullLinkShape, isRepoLinkShape } from '../trigger/ref.js'

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
 * The fields the platform names a place or a job with, and the one shape each is accepted in. A
 * value in any other shape is treated as absent, so it reaches no GitHub request, output or
 * summary; the answer is data, never an instruction where to write. A link, a repository and a
 * branch are what tokens act on, so they keep strict shapes; an id is the platform's opaque
 * string, taken as it is whatever characters it holds (`jobIdProblem`), and published only
 * encoded (`encodeJobId`) or escaped.
 */
export type NamedField = 'id' | 'prLink' | 'source.repository' | 'source.ref'

/**
 * A branch name as the agent works on them (`mintlify/docs-update-…`): the characters git allows
 * that need no quoting anywhere, no `..`, `//`, `@{`, leading `-` or `/`, or trailing `/`, `.` or
 * `.lock`, at most 255 characters.
 */
function isBranchShape(ref: string): boolean {
  return (
    /^[A-Za-z0-9_][A-Za-z0-9_./+-]{0,254}$/.test(ref) && !/\.\.|\/\/|\/\.|\.lock$|[/.]$/.test(ref)
  )
}

/** Whether `value` of `field` is in the field's one accepted shape. */
export function inShape(field: NamedField, value: string): boolean {
  switch (field) {
    case 'id':
      return jobIdProblem(value) === undefined
    case 'prLink':
      return isPullLinkShape(value)
    case 'source.repository':
      return isRepoLinkShape(value)
    case 'source.ref':
      return isBranchShape(value)
  }
}

/** The fields of a job that were refused for their shape: kept out of the job's JSON. */
const REFUSED = Symbol('refused')

type Refusing = { [REFUSED]?: readonly NamedField[] }

/** The named fields of `job` the platform gave in a shape the action does not accept. */
export function refusedFields(job: Job | undefined): readonly NamedField[] {
  return (job as Refusing | undefined)?.[REFUSED] ?? []
}

/** `job` with every named field out of shape set to null, the refusals remembered. */
function inShapeOnly(job: Job): Job {
  const refused: NamedField[] = []
  const keep = (field: NamedField, value: string | null | undefined) => {
    if (typeof value !== 'string' || inShape(field, value)) return value
    refused.push(field)
    return null
  }
  const shaped: Job = { ...job, id: keep('id', job.id), prLink: keep('prLink', job.prLink) }
  if (job.source) {
    shaped.source = {
      ...job.source,
      repository: keep('source.repository', job.source.repository),
      ref: keep('source.ref', job.source.ref)
    }
  }
  return withRefused(shaped, refused)
}

function withRefused(job: Job, refused: readonly NamedField[]): Job {
  if (refused.length === 0) return job
  // A symbol key: JSON (the `job` output) never shows it.
  Object.defineProperty(job, REFUSED, { value: refused, enumerable: false })
  return job
}

/**
 * Parses a response body into a job. Undefined when the body is not a job: not a JSON object, an
 * error body (`{"error": …}`, whatever its status), or an object with none of the job's fields.
 * A named field out of its shape (see `inShape`) reads as null, and `refusedFields` names it.
 */
export function parseJob(body: unknown): Job | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'error' in body) return undefined
  if (!JOB_FIELDS.some((field) => field in body)) return undefined
  const result = JobSchema.safeParse(body)
  return result.success ? inShapeOnly(result.data) : undefined
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
  const job = JobSchema.parse(merged)
  // A field refused in any answer and known from none is still said to be refused.
  const refused = [...new Set([...refusedFields(known), ...refusedFields(latest)])]
  return withRefused(
    job,
    refused.filter((field) => {
      const value = field.startsWith('source.')
        ? job.source?.[field.slice(7) as 'repository' | 'ref']
        : job[field as 'id' | 'prLink']
      return value === null || value === undefined
    })
  )
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
