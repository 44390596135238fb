import * as core from '@actions/core'
import { errorMessage } from './errors.js'
import { run } from './main.js'

// A GitHub call abandoned at its budget can still fail later inside Octokit's queue, after the
// run has moved on: that must not end a step whose docs job is reported.
process.on('unhandledRejection', (reason: unknown) =>
  core.debug(`A call abandoned earlier failed later: ${errorMessage(reason)}`)
)

await run()
