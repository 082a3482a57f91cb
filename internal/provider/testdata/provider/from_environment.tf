# Every setting from the environment (APM_ENDPOINT, APM_API_KEY, ...).
provider "apm" {}
