# A grant is imported as "<user_id>/<role_id>".
terraform import apm_user_role.bob_readers bob/readers
