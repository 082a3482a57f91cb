# Every change but role_id is made in place. A role still granted to a user cannot be
# deleted: the delete waits for the grants to go, then names the users holding it.
resource "apm_role" "operators" {
  role_id      = "operators"
  name         = "Operators"
  action_types = ["READ", "EXECUTE"]
  description  = "Start and stop servers, read everything." # optional
}
