# A system is imported by its name or by its id.
terraform import apm_system.example shop-prod
terraform import apm_system.example SYS-0001
