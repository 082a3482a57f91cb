# A system is imported by its name.
terraform import apm_system.example shop-prod
