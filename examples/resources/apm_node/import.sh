# A node is imported by "<system_name>/<name>".
terraform import apm_node.example shop-prod/web-01
