# Version and health of the APM manager. Needs no API key.
data "apm_manager_info" "this" {}

output "manager_version" {
  value = "${data.apm_manager_info.this.version} (patch ${data.apm_manager_info.this.patch_version}), ${data.apm_manager_info.this.status}"
}
