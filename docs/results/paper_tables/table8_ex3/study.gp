# bsde study: bs-call, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 3.720636e-04 1.073852e-03 8.678657e+00 3.899183e+00
64 1.561301e-04 5.603286e-04 1.436923e+01 4.837397e+00
128 6.966960e-05 2.865330e-04 2.001699e+01 5.984473e+00
256 3.309368e-05 1.446350e-04 3.144003e+01 6.608068e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 2.869093e-06 9.850384e-06 6.174577e+01 7.432251e+00
64 7.017131e-07 2.727994e-06 2.093723e+02 5.301336e+01
128 1.209703e-07 6.636728e-07 2.098175e+02 6.060824e+01
256 2.098810e-08 1.622418e-07 3.861166e+02 5.907861e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 5.691507e-08 3.543839e-07 4.029246e+02 6.608475e+01
64 5.647572e-09 4.591517e-08 6.989765e+02 6.551150e+01
128 6.661338e-10 5.653648e-09 9.224840e+02 7.438211e+01
256 7.857981e-11 7.285585e-10 1.499162e+03 1.313683e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 4.643446e-08 3.167231e-07 4.776276e+02 7.024161e+01
64 4.792175e-09 4.068163e-08 7.633787e+02 7.112701e+01
128 5.567760e-10 5.033916e-09 1.028836e+03 1.021937e+02
256 6.076650e-11 6.493543e-10 1.669071e+03 1.634511e+02
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 4.458108e-08 3.246482e-07 6.211166e+02 7.906463e+01
64 5.331138e-09 4.172892e-08 8.421514e+02 1.019952e+02
128 5.643859e-10 5.179871e-09 1.353638e+03 9.506253e+01
256 2.947539e-09 6.704699e-10 ? 1.629583e+02
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
32 4.569226e-08 3.207937e-07 8.517947e+02 8.750375e+01
64 5.400643e-09 4.118240e-08 1.250048e+03 8.560514e+01
128 5.258185e-10 5.115192e-09 1.598857e+03 1.043381e+02
256 6.817746e-11 6.638263e-10 ? 1.668678e+02
EOD
set logscale x 2
set xtics (32, 64, 128, 256)
set xrange [26.6667:307.2]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "bs-call: error of y_0 against N, K = K_y = K_z"
set ylabel "|y_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "z_error.png"
set title "bs-call: error of z_0 against N, K = K_y = K_z"
set ylabel "|z_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_serial.png"
set title "bs-call: speedup of cuda over serial"
set ylabel "speedup (serial time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_omp.png"
set title "bs-call: speedup of cuda over omp"
set ylabel "speedup (omp time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"
unset output
