# Forgets the child module's objects without destroying them: from then on they exist
# outside Terraform, as objects to adopt.
removed {
  from = module.platform

  lifecycle {
    destroy = false
  }
}
