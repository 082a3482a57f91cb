# A user is imported by its user_id. The manager never reports the password: the first
# apply after the import records the password attributes of the configuration without
# sending them; change password_wo_version in a later apply to set the password.
import {
  to = apm_user.alice
  id = "alice"
}
