# Day two of examples/topology, one apply: `terraform apply -var-file=day-two.tfvars` with
# the new password in TF_VAR_database_password. Against the defaults in variables.tf:
#   - scale-in: was-2 is gone, and with it its worker, session clustering, datasource
#     attachment and application;
#   - replacement: was-3 becomes the Enterprise edition, which replaces it (and its parts);
#     the web server's workers name the new server;
#   - rotation: database_password_version 1 -> 2 sends the new password, which replaces
#     the database, the datasource and its attachments.

was_servers = {
  "was-1" = { node = "app-01" }
  "was-3" = { node = "app-03", server_type = "Enterprise" }
}

database_password_version = 2
