import jax.numpy as jnp

def f(x): return jnp.sin(x)
def g(x): return jnp.cos(x)


def model(x, y):
    z = helper(f(x))
    return z + y, x
