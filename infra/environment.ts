/**
 * A function's environment after it is made (`addEnvironment`), by declared names only (shared/settings.ts), as
 * the constructors' `environment()`: a misspelt or undeclared name fails typecheck.
 */
import type * as lambda from "aws-cdk-lib/aws-lambda";
import { type Environment, environment } from "../shared/settings.js";

export function addEnvironment(fn: lambda.Function, vars: Environment): void {
  for (const [name, value] of Object.entries(environment(vars))) fn.addEnvironment(name, value);
}
