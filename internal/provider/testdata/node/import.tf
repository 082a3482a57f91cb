variable "id" { type = string }

# The node of id <system_id>/<name>, imported into apm_node.test, which node/one.tf declares.
import {
  to = apm_node.test
  id = var.id
}
