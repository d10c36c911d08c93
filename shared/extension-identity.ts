/**
 * The public half of the key that signs the Tabhive extension. Chromium derives an unpacked
 * extension's id from the manifest `key`, so shipping it pins the id for every install:
 * the launcher opens `chrome-extension://<id>/…` pages and tests address the worker by id.
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAjZBHMKa++parZNXn3nqLmiuD3dTbs6I373xvqjNGJUrZM5HqxubxJDHgd/y8Ijh/+BYM/qI0+n+ECxCTlarnuojAb6Mbm401C2HA0p9rXJc4kye/I8yUlYNCvbpbc2Fkwg5Xv+pu5/pdLqGIU6HRz7/X3Dt2y/g86lyTJADIXLLj0+ecP4wRF/rlxWrKg3xSF0HqdGFyNGS5bLaMs/7MJ/QEoqIHnFiv1CoNpf7IZ/ixGGYdLU/+Zh88LROBBiuFkdGgYtzcyA0+nzGo/oXi4fkPi5mcW3XdUsrzKeCEiqVGmIlXx8o4bLsSo9WUF+kqvOOvWC43AbQv8sfOP0shTQIDAQAB';

/** `chrome-extension://` id of the key above: sha256 of the DER key, first 32 hex digits mapped 0-f → a-p. */
export const EXTENSION_ID = 'bldifnpkbmhobfpmiihpcelogikpcdbl';
