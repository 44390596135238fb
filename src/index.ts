import * as core from '@actions/core'
import { errorMessage } from './base/errors.js'
import { run } from './main.js'
import { Reporter } from './report/sinks/report.js'
import { redact } from './base/secrets/redact.js'

// A GitHub call abandoned at its budget can still fail later inside Octokit's queue, after the
// run has moved on: that must not end a step whose docs job is reported.
process.on('unhandledRejection', (reason: unknown) =>
  core.debug(redact(`A call abandoned earlier failed later: ${errorMessage(reason)}`))
)

// `run` reports every failure it knows of. Anything else still fails the step with one message,
// never with a stack trace and a line of the minified bundle.
try {
  if (await run()) process.exitCode = core.ExitCode.Failure
} catch (error: unknown) {
  new Reporter().fail(`The action stopped on an unexpected error: ${errorMessage(error)}`)
  process.exitCode = core.ExitCode.Failure
}
