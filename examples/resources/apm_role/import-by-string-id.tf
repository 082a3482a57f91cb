# A role is imported by its role_id.
import {
  to = apm_role.operators
  id = "operators"
}
