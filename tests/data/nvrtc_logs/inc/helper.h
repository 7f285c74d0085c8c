#pragma once
__device__ inline int helper(int x)
{
    return x + undefined_thing;
}
