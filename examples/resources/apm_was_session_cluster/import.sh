# Session clustering is imported by its server, "<system>/<node>/<server_id>", where
# <system> is the system's name or its id.
terraform import apm_was_session_cluster.example shop-prod/app-01/was-1
terraform import apm_was_session_cluster.example SYS-0001/app-01/was-1
