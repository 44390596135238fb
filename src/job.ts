import { z } from 'zod'

/**
 * A field the platform documents as a string. Any field may be missing, null, or (from a proxy or
 * a future API version) of another type: such a value reads as absent rather than failing the run.
 */
const text = z.string().nullish().catch(undefined)

/** The agent job as the API returns it. Unknown fields are kept for the `job` output. */
export const JobSchema = z.looseObject({
  id: text,
  status: text,
  model: text,
  prLink: text,
  createdAt: text,
  archivedAt: text,
  source: z.looseObject({ repository: text, ref: text }).nullish().catch(undefined)
})

export type Job = z.infer<typeof JobSchema>

/** Parses a response body into a job; undefined when the body is not a JSON object. */
export function parseJob(body: unknown): Job | undefined {
  const result = JobSchema.safeParse(body)
  return result.success ? result.data : undefined
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

/** Pull request number from a GitHub pull request link, if it has one. */
export function pullRequestNumber(link: string | undefined): string | undefined {
  if (!link) return undefined
  const match = /\/pulls?\/(\d+)(?:[/?#]|$)/.exec(link)
  return match?.[1]
}
