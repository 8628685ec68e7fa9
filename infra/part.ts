import { Construct } from "constructs";

/**
 * A part of the stack (`Tables`, `Identity`, `Notifications`, `Mail`, `ApiFunction`): a construct that groups
 * resources without naming them. The stack leaves parts out of its resources' logical ids
 * (`InstitutionAdminStack.allocateLogicalId`), so that a deployed stack kept its ids when it was split into
 * parts: its tables and user pool are the same resources, not new ones.
 */
export class StackPart extends Construct {}
