# A role is imported by its role_id.
terraform import apm_role.operators operators
