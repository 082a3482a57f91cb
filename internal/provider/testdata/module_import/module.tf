# The child module's own input beside discovery/platform.tf: the id the manager gave the
# system, which only its import blocks (imports.tf) use.
variable "system_id" {
  type    = string
  default = null
}
