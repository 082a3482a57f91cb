# A grant is imported as "<user_id>/<role_id>".
import {
  to = apm_user_role.bob_readers
  id = "bob/readers"
}
