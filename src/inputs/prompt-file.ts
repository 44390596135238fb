/**
 * The prompt, from `prompt` or from a file in the workspace: a file is read only if it is a
 * regular one, and only so far, so a wrong path fails clearly instead of hanging.
 */
import { open, stat } from 'node:fs/promises'
import { InputError, cancellation, errorMessage } from '../errors.js'
import { forLog } from '../sanitize.js'

/** Largest prompt file read, so a wrong path to a large file fails clearly instead of slowly. */
export const MAX_PROMPT_FILE_BYTES = 1_000_000

/**
 * The prompt from `prompt` or from the file named by `prompt-file`. Exactly one must be given,
 * except with `job-id`, where neither means attaching to the job (the prompt is then '').
 * A problem goes to `problems`, and the result is undefined.
 */
export async function readPrompt(
  problems: Error[],
  prompt: string,
  promptFile: string,
  deadline: number,
  signal: AbortSignal | undefined,
  optional: boolean
): Promise<string | undefined> {
  const problem = (input: string, message: string) => {
    problems.push(new InputError(input, message))
    return undefined
  }
  if (prompt && promptFile) {
    return problem('prompt-file', 'cannot be used together with prompt; give one of them')
  }
  if (!promptFile) {
    if (optional && !prompt) return ''
    if (!prompt.trim()) {
      return problem('prompt', 'is required (or prompt-file): the instruction for the agent')
    }
    return prompt.trim()
  }
  let text: string
  try {
    text = await readTextFile(promptFile, MAX_PROMPT_FILE_BYTES, deadline, signal)
  } catch (error: unknown) {
    if (signal?.aborted) throw cancellation(signal)
    const reason =
      error && typeof error === 'object' && 'code' in error && error.code === 'ENOENT'
        ? 'no such file (paths are relative to the workspace; check out the repository first)'
        : errorMessage(error)
    return problem('prompt-file', `cannot read "${forLog(promptFile, 200)}": ${reason}`)
  }
  if (!text.trim()) {
    return problem(
      'prompt-file',
      `"${forLog(promptFile, 200)}" is empty; it must contain the prompt`
    )
  }
  return text.trim()
}

/**
 * Reads a regular file of at most `max` bytes. A FIFO, a device such as /dev/zero or a directory
 * is refused before it is opened (opening a FIFO blocks until a writer comes, and a device may
 * never end); the read stops at `max` bytes, at the step's deadline, and when `signal` aborts.
 */
async function readTextFile(
  path: string,
  max: number,
  deadline: number,
  signal?: AbortSignal
): Promise<string> {
  const info = await stat(path)
  if (!info.isFile()) throw new Error('it is not a regular file')
  if (info.size > max)
    throw new Error(`it is ${info.size} bytes; prompts of at most ${max} bytes are read`)
  const file = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(max + 1)
    let length = 0
    while (length < buffer.length) {
      if (signal?.aborted) throw cancellation(signal)
      if (Date.now() > deadline) throw new Error("it could not be read within the step's timeout")
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
    }
    if (length > max)
      throw new Error(`it is over ${max} bytes; prompts of at most ${max} bytes are read`)
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    await file.close()
  }
}
